// The kernel module every compile worker loads (bundled to plain JavaScript by kernel-bundle.ts).
// Every export is a kernel, so this file exports nothing else.
import { compileResource, type CompileEnvironment } from '../compile-resource.ts';
import { InputFiles } from '../input-files.ts';
import { usagesFromJson } from '../../textures/texture-usage.ts';
import { writeOutcome } from './results.ts';
import { SharedProjectView } from './shared-project.ts';

interface OpenProject {
  view: SharedProjectView;
  env: CompileEnvironment;
}

// One compile's project, opened once per worker: the header buffer is the same object for
// every task of that compile.
const opened = new WeakMap<ArrayBufferLike, OpenProject>();

function open(header: Uint8Array, sources: Uint8Array): OpenProject {
  let project = opened.get(header.buffer);
  if (project) return project;
  const view = new SharedProjectView({ header, sources });
  const decoder = new TextDecoder();
  const env: CompileEnvironment = {
    out: view.header.out,
    inputFiles: new InputFiles(view, view.header.fontDirs),
    resources: view,
    text: (path) => decoder.decode(view.get(path) ?? new Uint8Array(0)),
    hashOf: (path) => view.hashOf(path),
    textureUsages: usagesFromJson(view.header.textureUsages),
    textureDrafts: view.header.textureDrafts,
  };
  project = { view, env };
  opened.set(header.buffer, project);
  return project;
}

/** Compiles the `index`-th resource of the shared project's todo list and publishes its outcome. */
export async function compileResourceTask(header: Uint8Array, sources: Uint8Array, table: Int32Array, arena: Uint8Array, index: number): Promise<void> {
  const started = performance.now();
  const project = open(header, sources);
  const outcome = await compileResource(project.view.header.todo[index]!, project.env);
  writeOutcome({ table, bytes: arena }, project.view.header.todo.length, index, outcome, performance.now() - started);
}

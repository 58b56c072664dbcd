// The dependency checker on disk: read a project folder into a map, write changes back, and the
// `cuttle-merge deps` commands. Options come from `<root>/.cuttle-deps.sjson` when present:
//   key_types = { material = "material", textures = "texture" }
//   root_types = ["level", "package"]
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { CliArgs, CliCommand } from './cli-main.ts';
import { DependencyGraph, resourceOf, resourcePath, type DependencyOptions, type FileChanges, type ResourceId } from './dependency-checker.ts';
import { ToolsMergeError } from './errors.ts';
import { isObject } from './own.ts';
import { parseSjson } from './sjson-parse.ts';

/** The config file read from a project root. */
export const DEPS_CONFIG = '.cuttle-deps.sjson';

/** Every file under `root` (dot files and folders skipped), keyed by `/`-separated relative path. */
export function readProject(root: string): Map<string, string> {
  if (!existsSync(root)) throw new ToolsMergeError(`project folder ${root} does not exist`);
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.set(relative(root, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** Reads `<root>/.cuttle-deps.sjson` (snake_case keys) into options; empty options when absent. */
export function readDependencyOptions(root: string): DependencyOptions {
  const path = join(root, DEPS_CONFIG);
  if (!existsSync(path)) return {};
  const doc = parseSjson(readFileSync(path, 'utf8'), { source: path });
  if (!isObject(doc)) throw new ToolsMergeError(`${path}: expected key_types and root_types`);
  const options: DependencyOptions = {};
  const keyTypes = doc.key_types;
  if (isObject(keyTypes)) {
    options.keyTypes = {};
    for (const k of Object.keys(keyTypes)) {
      const t = keyTypes[k];
      if (typeof t !== 'string') throw new ToolsMergeError(`${path}: key_types.${k} must be a type name string`);
      Object.defineProperty(options.keyTypes, k, { value: t, enumerable: true });
    }
  }
  if (Array.isArray(doc.root_types)) options.rootTypes = doc.root_types.filter((t): t is string => typeof t === 'string');
  return options;
}

/** Builds the graph of the project at `root` (options from its config unless given). */
export function loadProject(root: string, options: DependencyOptions = readDependencyOptions(root)): DependencyGraph {
  return DependencyGraph.build(readProject(root), options);
}

/** Carries out `changes` under `root`. */
export function writeChanges(root: string, changes: FileChanges): void {
  for (const [path, text] of changes.write) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  for (const path of changes.remove) rmSync(join(root, path), { force: true });
}

const DEPS_USAGE = `cuttle-merge deps check <root>                       missing and dangling resources
cuttle-merge deps refs <root> <resource>             what it refers to and what refers to it
cuttle-merge deps move <root> <from> <to>            rename, patching every reference
cuttle-merge deps copy <root> <from> <to> [--referrers a.unit,b.level]
                                                      copy; redirect only the listed referrers
cuttle-merge deps replace <root> <old> <new>         point every reference to old at new
Resources are paths relative to the root: units/chest.unit is (unit, units/chest).
`;

function resource(p: CliArgs, index: number): ResourceId {
  const v = p.positional[index];
  if (v === undefined) throw new ToolsMergeError(`missing argument\n${DEPS_USAGE}`);
  return resourceOf(v);
}

function describeChanges(changes: FileChanges): string {
  const lines = [...changes.write.keys()].map((p) => `  write ${p}`);
  for (const p of changes.remove) lines.push(`  remove ${p}`);
  return lines.join('\n') + '\n';
}

/** `cuttle-merge deps ...` */
export const depsCommand: CliCommand = (p, io) => {
  const [command, root] = p.positional;
  if (command === undefined || command === 'help' || root === undefined) {
    io.stdout(DEPS_USAGE);
    return command === 'help' ? 0 : 2;
  }
  const graph = loadProject(root);
  switch (command) {
    case 'check': {
      const missing = graph.missing();
      const dangling = graph.dangling();
      for (const m of missing) io.stdout(`missing  ${resourcePath(m.resource)}  (referred to by ${m.referrers.map(resourcePath).join(', ')})\n`);
      for (const d of dangling) io.stdout(`dangling ${resourcePath(d)}\n`);
      io.stdout(`${graph.resources().length} resources, ${graph.references.length} references, ${missing.length} missing, ${dangling.length} dangling\n`);
      return missing.length > 0 ? 1 : 0;
    }
    case 'refs': {
      const id = resource(p, 2);
      io.stdout(`${resourcePath(id)}${graph.exists(id) ? '' : ' (missing)'}\n`);
      for (const d of graph.dependencies(id)) io.stdout(`  uses      ${resourcePath(d)}${graph.exists(d) ? '' : ' (missing)'}\n`);
      for (const r of graph.referrers(id)) io.stdout(`  used by   ${resourcePath(r)}\n`);
      return 0;
    }
    case 'move':
    case 'copy':
    case 'replace': {
      const a = resource(p, 2);
      const b = resource(p, 3);
      let changes: FileChanges;
      if (command === 'move') changes = graph.move(a, b);
      else if (command === 'replace') changes = graph.replace(a, b);
      else {
        const list = p.flags.get('--referrers');
        const referrers = typeof list === 'string' && list.length > 0 ? list.split(',').map((s) => resourceOf(s.trim())) : [];
        changes = graph.copy(a, b, referrers);
      }
      writeChanges(root, changes);
      io.stdout(`${command} ${resourcePath(a)} -> ${resourcePath(b)}\n${describeChanges(changes)}`);
      return 0;
    }
    default:
      throw new ToolsMergeError(`unknown deps command ${JSON.stringify(command)}\n${DEPS_USAGE}`);
  }
};

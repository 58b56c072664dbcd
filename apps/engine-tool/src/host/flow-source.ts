// Reading and saving a Flow graph's source for the page's Flow view. The page names the graph
// by the source path the engine gives in `flow.watching` (`flow/lamp.flow`); the page is treated
// as hostile: the path must be a plain relative `.flow` path, resolve (links followed) to an
// existing file inside the project's source folder, and the text has a size bound. Only graphs
// that exist are written: the view edits graphs, it does not create files.
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** Largest Flow source the tool reads or writes (the sample's graphs are under 3 KB). */
export const MAX_FLOW_SOURCE_BYTES = 512 * 1024;
/** Longest graph path the page may name. */
export const MAX_FLOW_PATH_CHARS = 256;

const FLOW_PATH = /^[a-z0-9_\-]+(\/[a-z0-9_\-]+)*\.flow$/i;

export class FlowSourceError extends Error {
  override readonly name = 'FlowSourceError';
}

/** The absolute file of graph `path` inside `project`; throws a FlowSourceError naming what is wrong. */
export function flowSourceFile(project: string, path: unknown): string {
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_FLOW_PATH_CHARS) {
    throw new FlowSourceError(`a Flow graph is named by its source path such as flow/lamp.flow (at most ${MAX_FLOW_PATH_CHARS} characters)`);
  }
  if (!FLOW_PATH.test(path)) throw new FlowSourceError(`"${path}" is not a Flow source path such as flow/lamp.flow (letters, digits, _ and -, folders with /, ending in .flow)`);
  const root = realpathSync(project);
  const file = join(root, path);
  if (!existsSync(file)) throw new FlowSourceError(`the project has no graph ${path}`);
  const real = realpathSync(file);
  const inside = relative(root, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) throw new FlowSourceError(`${path} leads outside the project`);
  if (!real.endsWith('.flow')) throw new FlowSourceError(`${path} leads to a file that is not a .flow source`);
  const stat = statSync(real);
  if (!stat.isFile()) throw new FlowSourceError(`${path} is not a file`);
  return real;
}

/** The text of graph `path` in `project`. */
export function readFlowSource(project: string, path: unknown): string {
  const file = flowSourceFile(project, path);
  if (statSync(file).size > MAX_FLOW_SOURCE_BYTES) throw new FlowSourceError(`${String(path)} is larger than the ${MAX_FLOW_SOURCE_BYTES} bytes the tool edits`);
  return readFileSync(file, 'utf8');
}

/** Checks `text` as a graph source to save: a string within the bound. */
export function checkFlowText(text: unknown): string {
  if (typeof text !== 'string') throw new FlowSourceError('the graph source must be text');
  if (Buffer.byteLength(text) > MAX_FLOW_SOURCE_BYTES) throw new FlowSourceError(`the graph source is larger than the ${MAX_FLOW_SOURCE_BYTES} bytes allowed`);
  return text;
}

/** Whether `text` is what graph `path` holds already (checking both as a save would). */
export function flowSourceUnchanged(project: string, path: unknown, text: unknown): boolean {
  const checked = checkFlowText(text);
  return readFlowSource(project, path) === checked;
}

/** Writes graph `path` in `project` (an existing graph only). */
export function writeFlowSource(project: string, path: unknown, text: unknown): void {
  const checked = checkFlowText(text);
  writeFileSync(flowSourceFile(project, path), checked);
}

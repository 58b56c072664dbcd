// Small, strict edits of WGSL source for the benchmark's probe and control builds: each edit
// must find exactly what it expects, so a kernel that changes shape fails loudly instead of
// measuring something else.

/** `source` with its one `target` replaced; throws (naming `what`) when it has none or several. */
export function replaceOnce(source: string, target: string, replacement: string, what: string): string {
  const at = source.indexOf(target);
  if (at < 0 || source.includes(target, at + 1)) throw new Error(`${what}: the source no longer has exactly one '${target.trim().split('\n')[0]!}'`);
  return source.slice(0, at) + replacement + source.slice(at + target.length);
}

/** `source` with function `name` (from `fn name(` to its closing brace at the start of a line) rewritten by `edit`. */
export function editFunction(source: string, name: string, edit: (text: string) => string, what: string): string {
  const start = source.indexOf(`\nfn ${name}(`);
  if (start < 0) throw new Error(`${what}: the source has no function '${name}'`);
  const close = source.indexOf('\n}\n', start);
  const end = close < 0 ? source.length : close + 3;
  return source.slice(0, start) + edit(source.slice(start, end)) + source.slice(end);
}

// README examples, taken out of a package's README and wrapped in its harness so they run as a
// module in a project that installed the packed package. A README's "## Example" section holds
// ```ts blocks: one whose first line is `// <name>.ts` is a module of its own (the jobs kernels),
// the others are examples, each run as its own module. The harness of the first is
// tooling/scripts/packed/<package>.harness.ts, of the n-th <package>.<n>.harness.ts: it supplies
// what the example leaves to the reader (a GPU device, an encoder, input data) above the marker
// line and checks the results below it.
import ts from 'typescript';

export const HARNESS_MARKER = '// ---- README example ----';

export interface ReadmeExample {
  /** The section's unnamed blocks in order (the first is the package's example); none without an "## Example" section. */
  blocks: string[];
  /** Extra modules the examples import, by file name (`kernels.ts`). */
  modules: { file: string; code: string }[];
}

/** The ```ts blocks of the first section whose heading starts with "## Example". */
export function readmeExample(markdown: string): ReadmeExample {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => /^## Example\b/.test(line));
  if (start < 0) return { blocks: [], modules: [] };
  let end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  if (end < 0) end = lines.length;
  const blocks: string[] = [];
  let open = -1;
  for (let i = start + 1; i < end; i++) {
    const line = lines[i]!;
    if (open < 0 && /^```(ts|typescript)\s*$/.test(line)) open = i + 1;
    else if (open >= 0 && /^```\s*$/.test(line)) {
      blocks.push(lines.slice(open, i).join('\n') + '\n');
      open = -1;
    }
  }
  const modules: { file: string; code: string }[] = [];
  const unnamed: string[] = [];
  for (const block of blocks) {
    const named = /^\/\/ ([\w.-]+\.ts)\b/.exec(block);
    if (named !== null) modules.push({ file: named[1]!, code: block });
    else unnamed.push(block);
  }
  return { blocks: unnamed, modules };
}

/** Top-level import declarations apart from the rest, each keeping its text. */
export function splitImports(code: string): { imports: string[]; body: string } {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports: string[] = [];
  let body = '';
  let cursor = 0;
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    body += code.slice(cursor, statement.getStart(source));
    imports.push(code.slice(statement.getStart(source), statement.end).trim());
    cursor = statement.end;
  }
  body += code.slice(cursor);
  return { imports, body: body.replace(/^\s*\n/, '') };
}

/**
 * The runnable module: every import first (the harness's, then the example's), then the harness
 * part above the marker, the example as written, and the harness part below the marker. A
 * harness line `// @throws <start of an example line>` wraps that line of the example in
 * `assert.throws`, for examples that show a misuse throwing.
 */
export function composeExample(example: string, harness: string): string {
  const at = harness.indexOf(HARNESS_MARKER);
  if (at < 0) throw new Error(`the harness has no marker line "${HARNESS_MARKER}"`);
  const above = splitImports(harness.slice(0, at));
  const below = harness.slice(at + HARNESS_MARKER.length);
  const { imports, body } = splitImports(example);
  let code = body;
  for (const match of harness.matchAll(/^\/\/ @throws (.+)$/gm)) {
    const needle = match[1]!.trim();
    const lines = code.split('\n');
    const i = lines.findIndex((line) => line.trim().startsWith(needle));
    if (i < 0) throw new Error(`@throws: no line of the example starts with ${JSON.stringify(needle)}`);
    const line = lines[i]!;
    const indent = /^\s*/.exec(line)![0];
    lines[i] = `${indent}assert.throws(() => { ${line.trim().replace(/\s*\/\/.*$/, '')} });`;
    code = lines.join('\n');
  }
  return [...new Set([...above.imports, ...imports])].join('\n') + '\n\n' + above.body.trimEnd() + '\n\n// README example, as written\n' + code.trimEnd() + '\n' + below;
}

// The packed-install test's README handling: which blocks are examples, how a harness wraps one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { composeExample, HARNESS_MARKER, readmeExample, splitImports } from '../src/packed/examples.ts';

const root = resolve(import.meta.dirname, '../../..');

test('the Example section gives its ts blocks; a block headed `// name.ts` is a module', () => {
  const md = [
    '# pkg', '', '```ts', 'notAnExample();', '```', '',
    '## Example: two files', '', '```ts', '// kernels.ts, built to kernels.js', 'export const k = 1;', '```', 'text', '```ts', "import { k } from './kernels.js';", 'use(k);', '```', '```sh', 'npm i', '```', '',
    '## API', '```ts', 'later();', '```',
  ].join('\n');
  expect(readmeExample(md)).toEqual({
    blocks: ["import { k } from './kernels.js';\nuse(k);\n"],
    modules: [{ file: 'kernels.ts', code: '// kernels.ts, built to kernels.js\nexport const k = 1;\n' }],
  });
  expect(readmeExample('# no example\n```ts\nx();\n```\n')).toEqual({ blocks: [], modules: [] });
});

test('imports are hoisted, the harness wraps the example, @throws wraps a line', () => {
  expect(splitImports("import a from 'a';\n// note\nimport {\n  b,\n} from 'b';\nrun(a, b);\n")).toEqual({ imports: ["import a from 'a';", "import {\n  b,\n} from 'b';"], body: '// note\n\nrun(a, b);\n' });
  const harness = `import assert from 'node:assert/strict';\n// @throws make(); // throws\nconst device = 1;\n${HARNESS_MARKER}\nassert.equal(x, 2);\n`;
  const example = "import { make } from 'pkg';\nconst x = device + 1;\nmake(); // throws: twice is an error\n";
  expect(composeExample(example, harness)).toBe(
    "import assert from 'node:assert/strict';\nimport { make } from 'pkg';\n\n// @throws make(); // throws\nconst device = 1;\n\n// README example, as written\nconst x = device + 1;\nassert.throws(() => { make(); });\n\nassert.equal(x, 2);\n",
  );
  expect(() => composeExample(example, 'no marker')).toThrow(/no marker line/);
  expect(() => composeExample(example, `// @throws nothing();\n${HARNESS_MARKER}\n`)).toThrow(/no line of the example starts with/);
});

test('every publishable package with an Example section has a harness for its first example', () => {
  for (const name of readdirSync(join(root, 'packages'))) {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as { private?: boolean };
    if (manifest.private === true) continue;
    const { blocks } = readmeExample(readFileSync(join(root, 'packages', name, 'README.md'), 'utf8'));
    if (blocks.length === 0) continue;
    const harness = readFileSync(join(root, 'tooling/scripts/packed', `${name}.harness.ts`), 'utf8');
    expect(() => composeExample(blocks[0]!, harness), name).not.toThrow();
  }
});

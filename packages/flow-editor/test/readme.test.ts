import { readFileSync } from 'node:fs';
import { FlowRegistry } from '@cuttle/flow';
import { expect, test } from 'vitest';
import { FlowConnectError, FlowDocument, FlowPalette } from '../src/index.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const self = readFileSync(new URL(import.meta.url), 'utf8');

test('the README example runs', () => {
  // --- README example ---
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: () => undefined });
  const doc = FlowDocument.fromSource('flow = 1\nkind = "level"\nnodes = [ { id = "start" type = "event/level_loaded" } ]\n', registry);

  const entry = new FlowPalette(registry).search('sound')[0]!; // action/play_sound
  const music = doc.addNode(entry, { x: 240, y: 0 }, { inputs: { name: 'music/level1' } });
  doc.connect({ node: 'start', pin: 'out' }, { node: music.id, pin: 'in' });
  expect(() => doc.connect({ node: 'start', pin: 'out' }, { node: music.id, pin: 'name' })).toThrow(FlowConnectError);
  const ok = doc.validation.ok; // true: the graph compiles
  doc.move({ nodes: [music.id] }, 20, 40);
  doc.undo(); // the node is back at (240, 0)
  const text = doc.toSource(); // SJSON in the file's layout; positions under `editor`
  // --- end of README example ---
  expect(ok).toBe(true);
  expect(doc.node(music.id)).toMatchObject({ x: 240, y: 0 });
  expect(text).toContain('position = [240 0]');
  expect(text).toContain('name = "music/level1"');
  expect(text).toContain('from = "start.out"');
});

test('the README block is the code above', () => {
  const block = /## Example\n\n```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  const code = /\/\/ --- README example ---\n([\s\S]*?)\n\s*\/\/ --- end of README example ---/.exec(self)![1]!;
  const lines = (text: string): string[] => text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('import '));
  const fromTest = lines(code).map((l) => l.replace(/^expect\(\(\) => (.*)\)\.toThrow\(FlowConnectError\);$/, '$1;'));
  const fromReadme = lines(block).map((l) => l.replace(/; \/\/ throws .*$/, ';'));
  expect(fromReadme).toEqual(fromTest);
});

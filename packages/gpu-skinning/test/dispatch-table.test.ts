import { expect, test } from 'vitest';
import { DispatchTable } from '../src/index.ts';

test('work items: one per chunk of each due instance, instance index and mode in the head word', () => {
  const table = new DispatchTable(4);
  table.add(0, 300, 0, 10, 0, false);
  table.add(300, 100, 10, 10, 300, true);
  const out = new Uint32Array(table.workItemsBound(128) * 2);
  expect(table.workItemsBound(128)).toBe(3 + 1);
  // Frame 0: both reset (mode 1), in chunks of 128.
  const first = table.buildFrame(0, 2, 128, out);
  expect(first).toEqual({ workItems: 4, skinned: 2, held: 0, skipped: 0, vertices: 400 });
  expect(Array.from(out)).toEqual([1 << 30, 0, 1 << 30, 128, 1 << 30, 256, (1 | (1 << 30)) >>> 0, 0]);
  // Frame 1: instance 1 is far and due when (1 + 1) % 2 == 0: skinned (mode 0).
  expect(table.buildFrame(1, 2, 128, out)).toMatchObject({ skinned: 2, held: 0 });
  expect(out[6]).toBe(1);
  // Frame 2: not due: held once (mode 2); frame 3... due again; frame 4 held; with interval 4, skipped after the hold.
  expect(table.buildFrame(2, 2, 128, out)).toMatchObject({ skinned: 1, held: 1, workItems: 4 });
  expect(out[6]).toBe((1 | (2 << 30)) >>> 0);
  expect(table.buildFrame(5, 4, 128, out)).toMatchObject({ skinned: 1, held: 0, skipped: 1, workItems: 3 });
  // A reset is skinned whatever the LOD; setFar(false) makes it due every frame.
  table.requestReset(1);
  expect(table.modeFor(1, 6, 4)).toBe('reset');
  table.setFar(1, false);
  table.buildFrame(6, 4, 128, out);
  expect(table.modeFor(1, 7, 4)).toBe('skin');
});

test('saveState / restoreState undo a frame', () => {
  const table = new DispatchTable(1);
  table.add(0, 10, 0, 1, 0, false);
  const saved = table.saveState();
  table.buildFrame(0, 1, 64, new Uint32Array(2));
  expect(table.modeFor(0, 1, 1)).toBe('skin');
  table.restoreState(saved);
  expect(table.modeFor(0, 1, 1)).toBe('reset');
});

// The engine's frame allocator grows to what a world stages each frame (every walker's palette):
// a larger one replaces it between frames, and the memory overview shows the new one.
import { allocateView } from '@cuttle/allocators';
import { expect } from 'vitest';
import { gpuTest } from '@cuttle/test-utils';
import { EngineMemory } from '../src/runtime/memory.ts';

gpuTest('reserveFrame grows the frame allocator (at least doubling) and never shrinks it', ({ device }) => {
  const memory = new EngineMemory(device);
  const first = memory.frame;
  const frameNode = () => memory.tree().children.find((node) => node.name === 'frame')!;
  const before = frameNode().capacity!;
  expect(before).toBe(1 << 20);
  memory.reserveFrame(before); // fits: nothing changes
  expect(memory.frame).toBe(first);
  allocateView(memory.frame, Float32Array, 1000);
  memory.reserveFrame(before + 1);
  expect(memory.frame).not.toBe(first);
  expect(frameNode().capacity).toBe(2 << 20);
  memory.reserveFrame(5_000_000);
  expect(frameNode().capacity).toBe(Math.ceil(5_000_000 / 65536) * 65536);
  const grown = memory.frame;
  memory.reserveFrame(100);
  expect(memory.frame).toBe(grown);
  // A frame's worth fits now, and the overview still lists every root once.
  memory.frame.reset();
  const palettes = allocateView(memory.frame, Float32Array, 4_999_000 / 4);
  expect(palettes.length).toBe(1_249_750);
  expect(memory.tree().children.map((node) => node.name)).toEqual(['gpu/vertices', 'gpu/indices', 'gpu/uniforms', 'gpu/instances', 'frame']);
  memory.destroy();
  return Promise.resolve();
});

// The frame benchmark's label texts are what its case names say: 16 characters, or 8 to 24.
import { describe, expect, test } from 'vitest';
import { labelText } from '../bench/scenes.ts';

describe('the frame benchmark\'s labels', () => {
  test('fixed labels are 16 characters, varying ones span 8 to 24, none holds a space', () => {
    const lengths = new Set<number>();
    for (let generation = 0; generation < 9; generation++) {
      for (let i = 0; i < 10_000; i += 7) {
        expect(labelText(i, generation)).toHaveLength(16);
        const varying = labelText(i, generation, true);
        lengths.add(varying.length);
        expect(varying).not.toContain(' ');
      }
    }
    expect(Math.min(...lengths)).toBe(8);
    expect(Math.max(...lengths)).toBe(24);
    expect(lengths.size).toBe(17);
  });
});

// The README's example, run as written.
import { expect, test } from 'vitest';
import { merge, murmurHash2, parseSjson, staticHash, writeSjson } from '../src/index.ts';

test('README example', () => {
  const base = parseSjson(`
    // two designers start from this level
    units = [
        { id = "a", position = [0 0 0] }
        { id = "b", position = [1 0 0] }
    ]
    fog = 0.2
  `);
  const left = parseSjson('units = [ { id = "a", position = [0 5 0] } { id = "b", position = [1 0 0] } ]\nfog = 0.5');
  const right = parseSjson('units = [ { id = "a", position = [0 0 0] } { id = "b", position = [1 0 0] } { id = "c", position = [2 0 0] } ]\nfog = 0.9');

  const { merged, conflicts } = merge(base, left, right);
  const text = writeSjson(merged);
  // unit a moved (left) and c added (right); both changed the fog: right wins, and it is reported.
  expect(conflicts).toEqual([{ path: ['fog'], base: 0.2, left: 0.5, right: 0.9, winner: 'right', reason: 'both changed' }]);

  expect(text).toBe(`units = [
    {
        id = "a"
        position = [0 5 0]
    }
    {
        id = "b"
        position = [1 0 0]
    }
    {
        id = "c"
        position = [2 0 0]
    }
]
fog = 0.9
`);
  expect(staticHash('root_point', 0x5e43bd96)).toBe(murmurHash2('root_point'));
});

// The README's example, run as written.
import { expect, test } from 'vitest';
import { merge, mergeComments, murmurHash2, parseSjson, parseSjsonDocument, sjsonStyleOf, staticHash, writeSjson, type SjsonDocument } from '../src/index.ts';

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

test('README: SJSON as the engines write it, comments included', () => {
  const baseText = 'units = [\n\t// the crane\n\t{\n\t\t_guid = "g1"\n\t\tposition = [\n\t\t\t0\n\t\t\t0\n\t\t]\n\t}\n]\n';
  const leftText = 'units = [\n\t// the crane, moved by Anna\n\t{\n\t\t_guid = "g1"\n\t\tposition = [\n\t\t\t0\n\t\t\t5\n\t\t]\n\t}\n]\n';
  const rightText = 'units = [\n\t// the crane\n\t{\n\t\t_guid = "g1"\n\t\tposition = [\n\t\t\t0\n\t\t\t0\n\t\t]\n\t}\n\t{\n\t\t_guid = "g2" // Ben\'s lamp\n\t}\n]\n';

  const [base, left, right] = [baseText, leftText, rightText].map((text) => parseSjsonDocument(text)) as [SjsonDocument, SjsonDocument, SjsonDocument];
  const { merged, conflicts } = merge(base.value, left.value, right.value, { idKeys: ['_guid'] });
  const { comments } = mergeComments(base.comments, left.comments, right.comments, merged, ['_guid']);
  // Written in the layout of the left file: Crown's tabs and one number per line stay.
  const text = writeSjson(merged, { ...sjsonStyleOf(leftText), comments, idKeys: ['_guid'] });

  expect(conflicts).toEqual([]);
  expect(text).toBe('units = [\n\t// the crane, moved by Anna\n\t{\n\t\t_guid = "g1"\n\t\tposition = [\n\t\t\t0\n\t\t\t5\n\t\t]\n\t}\n\t{\n\t\t_guid = "g2" // Ben\'s lamp\n\t}\n]\n');
});

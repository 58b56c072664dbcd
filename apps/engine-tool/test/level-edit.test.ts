// The property editor's source edit: one value changes, the file keeps its layout and comments,
// bad values are refused before anything is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseSjson } from '@cuttle/tools-merge';
import { EditError, editUnitProperty, listUnits } from '../src/host/level-edit.ts';

const level = readFileSync(join(import.meta.dirname, '..', '..', 'engine', 'sample', 'levels', 'courtyard.level'), 'utf8');
const commented = `// A small level
units = [
    {
        // the first crate
        id = "a"
        unit = "units/crate"
        position = [0 0.5 0]
    }
    { id = "b", unit = "units/crate" }  // a second one
]
`;

function changed(a: string, b: string): string[] {
  const x = a.split('\n'), y = b.split('\n');
  return y.filter((line, i) => line !== x[i]);
}

describe('editing a unit property in the SJSON source', () => {
  test('the sample level: one property, one changed line', () => {
    const edited = editUnitProperty(level, 'crate_001', 'position', [-17.7, 2.5, 2]);
    expect(changed(level, edited)).toEqual(['        position = [-17.7 2.5 2]']);
    expect(listUnits(edited).find((u) => u.id === 'crate_001')!.position).toEqual([-17.7, 2.5, 2]);
    expect(edited.startsWith('// The sample level')).toBe(true);
  });

  test('adding and removing an override; comments stay', () => {
    const added = editUnitProperty(commented, 'a', 'material', 'materials/painted');
    expect(added).toContain('// A small level');
    expect(added).toContain('// the first crate');
    expect(added).toContain('// a second one');
    expect((parseSjson(added) as { units: { material?: string }[] }).units[0]!.material).toBe('materials/painted');
    const removed = editUnitProperty(added, 'a', 'material', null);
    expect((parseSjson(removed) as { units: { material?: string }[] }).units[0]!.material).toBeUndefined();
    expect(removed).toContain('// the first crate');
  });

  test('bad edits are refused', () => {
    expect(() => editUnitProperty(commented, 'zzz', 'position', [0, 0, 0])).toThrow(new EditError('the level has no unit "zzz"'));
    expect(() => editUnitProperty(commented, 'a', 'position', [0, 0])).toThrow('position must be 3 finite numbers');
    expect(() => editUnitProperty(commented, 'a', 'position', [0, Number.NaN, 0])).toThrow('position must be 3 finite numbers');
    expect(() => editUnitProperty(commented, 'a', 'material', '../../etc/passwd')).toThrow('material must be a resource name');
    expect(() => editUnitProperty(commented, 'a', 'id' as 'position', 'x')).toThrow('is not an editable property');
  });
});

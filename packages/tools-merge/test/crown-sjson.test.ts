// SJSON as BitSquid's descendants write it (Crown's level editor, Stingray): GUID-keyed
// component maps, keys with `-` `.` `$` `#`, comments, """ strings, arrays keyed by `_guid`.
// The fixtures in test/fixtures/crown are written in that layout (make-fixtures.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import {
  idKindOf,
  jsonClone,
  merge,
  parseSjson,
  parseSjsonDocument,
  sjsonStyleOf,
  writeJson,
  writeSjson,
  type JsonObject,
  type JsonValue,
  type SjsonDocument,
} from '../src/index.ts';
import { runCli } from '../src/node.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, 'fixtures/crown', name), 'utf8');
const level = fixture('harbour.level');
const unit = fixture('crate.unit');
const render = fixture('render.sjson');

type Unit = JsonObject & { _guid: string; modified_components: Record<string, JsonObject & { data: JsonObject }> };
const TRANSFORM = '#f56420ad-7f9c-4cca-aca5-350f366e0dc0';
const MESH = '#6ef7e034-8519-4189-9527-04dfe17aebca';

function unitsOf(doc: JsonValue): Unit[] {
  return (doc as { units: Unit[] }).units;
}

/** Every comment of a text, as written (the fixtures have no `//` inside strings). */
function commentsIn(text: string): string[] {
  return [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0].trimEnd());
}

test('a Crown level parses: GUID-keyed component maps, _guid arrays, comments, """ strings', () => {
  const doc = parseSjson(level, { source: 'harbour.level' }) as JsonObject;
  const units = unitsOf(doc);
  expect(units).toHaveLength(320);
  expect(doc._type).toBe('level');
  for (const u of units) {
    expect(u._guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Object.keys(u.modified_components)).toContain(TRANSFORM);
    expect(u.modified_components[TRANSFORM]!.type).toBe('transform');
    expect((u.modified_components[TRANSFORM]!.data.position as number[]).length).toBe(3);
  }
  expect(idKindOf(units)).toEqual({ key: '_guid' });
  expect(units.filter((u) => typeof u.notes === 'string')).toHaveLength(8);
  expect(units.find((u) => typeof u.notes === 'string')!.notes).toContain('\n  - "cover" means waist height, not head height\n');
  // %.17g spellings read as the doubles they are.
  expect(units.some((u) => (u.modified_components[TRANSFORM]!.data.position as number[])[2] === 7.04921)).toBe(true);
});

test('a Crown unit and a Stingray-style settings file parse; odd keys stay bare when written', () => {
  const crate = parseSjson(unit) as JsonObject;
  expect(idKindOf(crate.components as JsonValue[])).toEqual({ key: '_guid' });
  expect(((crate.children as JsonObject[])[0]!.components as JsonObject[])[1]!.data).toMatchObject({ geometry_name: 'Crate.Lid-01' });
  const settings = parseSjson(render) as JsonObject;
  expect(Object.keys(settings)).toEqual(['$schema', 'render.shadow-quality', 'lod.bias-0', 'ssao.radius', 'resource_generators', 'shaders']);
  expect(Object.keys(settings.resource_generators as JsonObject)).toEqual(['#9a7c9d4e-2b39-4f0e-8c55-1f3a3f1d9e21', '2f4e7d1a-55c0-4a8e-9b1d-0c6a7e2f9b33']);
  expect(((settings.shaders as JsonObject).fog_apply as JsonObject).code).toContain('float fog = 1.0 - exp(');
  const written = writeSjson(settings);
  expect(written).toContain('\n$schema = "render_config"'.slice(1));
  expect(written).toContain('render.shadow-quality = "high"');
  expect(written).toContain('#9a7c9d4e-2b39-4f0e-8c55-1f3a3f1d9e21 = {');
  expect(written).toContain('2f4e7d1a-55c0-4a8e-9b1d-0c6a7e2f9b33 = {');
  expect(parseSjson(written)).toEqual(settings);
  // Keys the engines could not read bare are quoted.
  const odd = { 'two words': 1, 'a=b': 2, 'x:y': 3, 'q"uote': 4, '{brace}': 5, 'ü-key': 6, '': 7, 'comma,key': 8 };
  const text = writeSjson(odd);
  expect(text).toContain('"two words" = 1');
  expect(parseSjson(text)).toEqual(odd);
  // Non-ASCII bare keys read too.
  expect(parseSjson('größe = 3\n#ünïcødé-key = 4')).toEqual({ größe: 3, '#ünïcødé-key': 4 });
});

test('Crown files round-trip: same data, same comments, same layout but for %.17g number spellings', () => {
  for (const [name, text] of [['harbour.level', level], ['crate.unit', unit], ['render.sjson', render]] as const) {
    const doc = parseSjsonDocument(text, { source: name });
    const written = writeSjson(doc.value, { ...sjsonStyleOf(text), comments: doc.comments });
    const again = parseSjsonDocument(written);
    expect(again.value).toEqual(doc.value);
    expect(again.comments).toEqual(doc.comments);
    expect(commentsIn(written)).toEqual(commentsIn(text));
    // Line by line, the only differences are numbers written shorter.
    const a = text.split('\n');
    const b = written.split('\n');
    if (name !== 'render.sjson') {
      expect(b.length).toBe(a.length);
      const changed = a.map((line, i) => [line, b[i]!] as const).filter(([x, y]) => x !== y);
      for (const [x, y] of changed) expect(Number(x.trim())).toBe(Number(y.trim()));
      expect(changed.length).toBeLessThan(20);
    }
    // And through JSON (which has no comments) the data survives too.
    expect(parseSjson(writeJson(doc.value))).toEqual(doc.value);
  }
});

test('comments survive a parse-edit-write round trip: edits, a reorder, an added and a removed unit', () => {
  const doc = parseSjsonDocument(level);
  const units = unitsOf(doc.value);
  const commented = doc.comments.filter((c) => c.path[0] === 'units' && c.place === 'before' && c.path.length === 2);
  expect(commented.length).toBeGreaterThan(10);
  // The first commented unit is moved, the second removed, the list reversed, a unit added.
  const movedId = (commented[0]!.path[1] as { id: string }).id;
  const removedId = (commented[1]!.path[1] as { id: string }).id;
  const moved = units.find((u) => u._guid === movedId)!;
  moved.modified_components[TRANSFORM]!.data.position = [1, 2, 3];
  units.splice(units.findIndex((u) => u._guid === removedId), 1);
  units.reverse();
  units.push({ _guid: 'ffffffff-0000-4000-8000-000000000001', _type: 'unit', modified_components: {}, prefab: 'units/props/crate' });
  const written = writeSjson(doc.value, { ...sjsonStyleOf(level), comments: doc.comments });
  // Every comment is still in the file...
  expect(commentsIn(written).sort()).toEqual(commentsIn(level).sort());
  const again = parseSjsonDocument(written);
  // ...the moved unit's note is still right above it...
  expect(again.comments).toContainEqual({ place: 'before', path: ['units', { id: movedId }], text: commented[0]!.text });
  // ...and the removed unit's note is kept at the end of the units array, not dropped.
  expect(again.comments).toContainEqual({ place: 'end', path: ['units'], text: commented[1]!.text });
});

/** Base, and two designers' versions, edited in the text as an editor that keeps comments would. */
function designers(): { base: JsonValue; left: JsonValue; right: JsonValue; units: Unit[] } {
  const base = parseSjson(level);
  const units = unitsOf(base);
  const left = jsonClone(base);
  const right = jsonClone(base);
  const lu = unitsOf(left);
  const ru = unitsOf(right);
  const target = units.findIndex((u) => Object.hasOwn(u.modified_components, MESH));
  // Anna moves the unit, Ben changes its material: different fields of the same unit.
  lu[target]!.modified_components[TRANSFORM]!.data.position = [0, 5, 0];
  ru[target]!.modified_components[MESH]!.data.material = 'materials/rust';
  ru[target]!.modified_components[MESH]!.data.cast_shadows = false;
  // Anna removes unit 10 and adds two; Ben removes unit 200 and adds one after unit 50.
  lu.splice(10, 1);
  lu.push({ _guid: 'aaaaaaaa-0000-4000-8000-000000000001', _type: 'unit', modified_components: {}, prefab: 'units/props/crate' });
  lu.splice(100, 0, { _guid: 'aaaaaaaa-0000-4000-8000-000000000002', _type: 'unit', modified_components: {}, prefab: 'units/props/barrel' } as Unit);
  ru.splice(200, 1);
  ru.splice(51, 0, { _guid: 'bbbbbbbb-0000-4000-8000-000000000001', _type: 'unit', modified_components: {}, prefab: 'units/props/bollard' } as Unit);
  return { base, left, right, units };
}

test('3-way merge of a level keyed by _guid: edits to one unit combine, adds and removes all land', () => {
  const { base, left, right, units } = designers();
  const { merged, conflicts } = merge(base, left, right);
  expect(conflicts).toEqual([]);
  const mu = unitsOf(merged);
  const target = units.find((u) => Object.hasOwn(u.modified_components, MESH))!;
  const m = mu.find((u) => u._guid === target._guid)!;
  expect(m.modified_components[TRANSFORM]!.data.position).toEqual([0, 5, 0]);
  expect(m.modified_components[MESH]!.data).toMatchObject({ material: 'materials/rust', cast_shadows: false });
  const ids = mu.map((u) => u._guid);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toHaveLength(320 - 2 + 3);
  expect(ids).not.toContain(units[10]!._guid);
  expect(ids).not.toContain(units[200]!._guid);
  expect(ids.indexOf('bbbbbbbb-0000-4000-8000-000000000001')).toBe(ids.indexOf(units[50]!._guid) + 1);
  expect(ids).toContain('aaaaaaaa-0000-4000-8000-000000000001');
  expect(ids).toContain('aaaaaaaa-0000-4000-8000-000000000002');
});

test('id keys are an option: without _guid a merge loses a change, with a custom key it merges', () => {
  const base = parseSjson(level);
  const left = jsonClone(base);
  const right = jsonClone(base);
  const k = unitsOf(base).findIndex((u) => Object.hasOwn(u.modified_components, MESH));
  // Anna moves unit k; Ben changes its material and deletes the unit after it.
  unitsOf(left)[k]!.modified_components[TRANSFORM]!.data.position = [0, 5, 0];
  unitsOf(right)[k]!.modified_components[MESH]!.data.material = 'materials/rust';
  unitsOf(right).splice(k + 1, 1);
  const byGuid = merge(base, left, right);
  expect(byGuid.conflicts).toEqual([]);
  const unitK = unitsOf(byGuid.merged)[k]!;
  expect(unitK.modified_components[TRANSFORM]!.data.position).toEqual([0, 5, 0]);
  expect(unitK.modified_components[MESH]!.data.material).toBe('materials/rust');
  // Keyed by `id` only, the units array has no ids: the two edits overlap and Anna's move is lost
  // (reported, but lost).
  const blind = merge(base, left, right, { idKeys: ['id'] });
  expect(blind.conflicts).toHaveLength(1);
  expect(blind.conflicts[0]!.reason).toBe('both edited the same stretch of the array');
  expect(unitsOf(blind.merged)[k]!.modified_components[TRANSFORM]!.data.position).not.toEqual([0, 5, 0]);
  // A project whose arrays use another key names it.
  const rename = (doc: JsonValue): JsonValue => JSON.parse(JSON.stringify(doc).replaceAll('"_guid":', '"object_id":')) as JsonValue;
  const custom = merge(rename(base), rename(left), rename(right), { idKeys: ['object_id'] });
  expect(custom.conflicts).toEqual([]);
  expect(custom.merged).toEqual(rename(byGuid.merged));
  expect(() => merge(base, left, right, { idKeys: [] })).toThrow(/idKeys must be a non-empty array/);
  expect(() => merge(base, left, right, { idKeys: [''] })).toThrow(/idKeys/);
});

test('the first id key every element has wins; a key that is not unique falls through to the next', () => {
  const arr = [
    { id: 1, _guid: 'x' },
    { id: 1, _guid: 'y' },
  ];
  expect(idKindOf(arr)).toEqual({ key: '_guid' });
  expect(idKindOf(arr, ['id'])).toBe('none');
  expect(idKindOf([{ _id: 'a' }, { _id: 'b' }])).toEqual({ key: '_id' });
  expect(idKindOf([{ name: 'a' }], ['name'])).toEqual({ key: 'name' });
});

test('git driver on Crown files: --id-key, both designers\' edits and notes, Crown layout kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cuttle-crown-driver-'));
  try {
    const save = (file: string, edit: (doc: SjsonDocument) => void): void => {
      const doc = parseSjsonDocument(level);
      edit(doc);
      writeFileSync(join(dir, file), writeSjson(doc.value, { ...sjsonStyleOf(level), comments: doc.comments }));
    };
    const k = unitsOf(parseSjson(level)).findIndex((u) => Object.hasOwn(u.modified_components, MESH));
    const guidK = unitsOf(parseSjson(level))[k]!._guid;
    writeFileSync(join(dir, 'O'), level);
    save('A', (doc) => {
      unitsOf(doc.value)[k]!.modified_components[TRANSFORM]!.data.position = [0, 5, 0];
      doc.comments.push({ place: 'before', path: ['units', { id: guidK }], text: ['// Anna: moved off the walkway'] });
    });
    save('B', (doc) => {
      unitsOf(doc.value)[k]!.modified_components[MESH]!.data.material = 'materials/rust';
      unitsOf(doc.value).splice(k + 1, 1);
      doc.comments.push({ place: 'end', path: ['units'], text: ['// Ben: lighting pass done'] });
    });
    const a = readFileSync(join(dir, 'A'), 'utf8');
    const stderr: string[] = [];
    const io = { stdout: () => undefined, stderr: (s: string) => void stderr.push(s) };
    expect(runCli(['git-driver', join(dir, 'O'), join(dir, 'A'), join(dir, 'B'), 'levels/harbour.level'], io)).toBe(0);
    expect(stderr).toEqual([]);
    const merged = readFileSync(join(dir, 'A'), 'utf8');
    const doc = parseSjsonDocument(merged);
    const unitK = unitsOf(doc.value).find((u) => u._guid === guidK)!;
    expect(unitK.modified_components[TRANSFORM]!.data.position).toEqual([0, 5, 0]);
    expect(unitK.modified_components[MESH]!.data.material).toBe('materials/rust');
    expect(unitsOf(doc.value)).toHaveLength(319);
    for (const note of [...commentsIn(level), '// Anna: moved off the walkway', '// Ben: lighting pass done']) expect(merged).toContain(note);
    expect(merged).toContain('\n\t\t\t\t\tposition = [\n\t\t\t\t\t\t0\n\t\t\t\t\t\t5\n\t\t\t\t\t\t0\n\t\t\t\t\t]\n');
    // With `--id-key id` the units array has no ids: the overlapping edits conflict, and it is said.
    writeFileSync(join(dir, 'A'), a);
    expect(runCli(['git-driver', join(dir, 'O'), join(dir, 'A'), join(dir, 'B'), 'levels/harbour.level', '--id-key', 'id'], io)).toBe(0);
    expect(stderr.join('')).toMatch(/conflict at units\[\d+\] \(both edited the same stretch of the array\); kept right/);
    stderr.length = 0;
    expect(runCli(['merge', join(dir, 'O'), join(dir, 'O'), join(dir, 'B'), '--id-key', 'object_id', '--id-key', '_guid', '-o', join(dir, 'M')], io)).toBe(0);
    expect(readFileSync(join(dir, 'M'), 'utf8')).toBe(readFileSync(join(dir, 'B'), 'utf8'));
    expect(runCli(['merge', join(dir, 'O'), join(dir, 'O'), join(dir, 'B'), '--id-key', 'id,'], io)).toBe(2);
    expect(stderr.join('')).toContain('--id-key needs key names separated by commas');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { expect, test } from 'vitest';
import { FlowEditorError } from '../src/index.ts';
import { NodeActivity, PinValueTable, compactNumber, formatPinValue } from '../src/view/index.ts';
import { checkCounts, checkPinValues } from '../src/view/pin-values.ts';
import { thrown } from './helpers.ts';

test('numbers in a few characters', () => {
  expect(compactNumber(3)).toBe('3');
  expect(compactNumber(-40)).toBe('-40');
  expect(compactNumber(1 / 3)).toBe('0.3333');
  expect(compactNumber(12.3456)).toBe('12.35');
  expect(compactNumber(-0)).toBe('0');
  expect(compactNumber(1234567.5)).toBe('1.23e6');
  expect(compactNumber(0.00012)).toBe('1.20e-4');
  expect(compactNumber(Infinity)).toBe('∞');
  expect(compactNumber(NaN)).toBe('—');
});

test('pin values read with the pin type: bools, strings through the table, units, vectors, never ran', () => {
  expect(formatPinValue(1, 'bool')).toBe('true');
  expect(formatPinValue(0, 'bool')).toBe('false');
  expect(formatPinValue(true)).toBe('true');
  expect(formatPinValue(2, 'string', ['a', 'b', 'music/level1'])).toBe('"music/level1"');
  expect(formatPinValue(7, 'string')).toBe('string #7');
  expect(formatPinValue('x'.repeat(40))).toBe(JSON.stringify(`${'x'.repeat(31)}…`));
  expect(formatPinValue(8, 'unit')).toBe('unit 8');
  expect(formatPinValue(-1, 'unit')).toBe('no unit');
  expect(formatPinValue(0.5, 'float')).toBe('0.5');
  expect(formatPinValue(2.6666666, 'int')).toBe('2.667');
  expect(formatPinValue([1, 2.5, 1 / 3])).toBe('(1, 2.5, 0.3333)');
  expect(formatPinValue(new Float32Array([1, 2, 3, 4, 5]))).toBe('(1, 2, 3, 4, …)');
  expect(formatPinValue({ x: 1, y: -2, z: 0.25 })).toBe('(1, -2, 0.25)');
  expect(formatPinValue(NaN, 'float')).toBe('—');
  expect(formatPinValue(undefined)).toBe('—');
  expect(formatPinValue(10n)).toBe('10');
  expect(formatPinValue({ other: 1 })).toBe('…');
});

test('pin values from a Map or from a watch\'s flat arrays', () => {
  const table = new PinValueTable();
  expect(table.get('a', 0)).toBeUndefined();
  table.set(new Map([['hits', [3, 1]]]));
  expect(table.get('hits', 1)).toBe(1);
  expect(table.get('hits', 2)).toBeUndefined();
  expect(table.get('nope', 0)).toBeUndefined();
  // node 0 has no pins, node 1 two, node 2 one
  const ids = ['spawned', 'fraction', 'paint'];
  const values = new Float64Array([1, 3, 0.3333]);
  const start = new Int32Array([0, 0, 2, 3]);
  table.set({ ids, values, start, strings: ['s'] });
  expect(table.get('fraction', 0)).toBe(1);
  expect(table.get('fraction', 1)).toBe(3);
  expect(table.get('fraction', 2)).toBeUndefined(); // belongs to paint
  expect(table.get('paint', 0)).toBe(0.3333);
  expect(table.get('spawned', 0)).toBeUndefined();
  expect(table.strings).toEqual(['s']);
  values[2] = 1; // live: the runtime writes in place
  expect(table.get('paint', 0)).toBe(1);
});

test('bad activity and pin values are refused, naming the shape', () => {
  expect(thrown(() => { checkCounts([1, 2]); })).toBeInstanceOf(FlowEditorError);
  expect((thrown(() => { checkCounts({ ids: ['a', 'b'], counts: new Uint32Array(1) }); }) as Error).message).toContain('counts has 1 entries for 2 ids');
  expect((thrown(() => { checkPinValues({ ids: ['a'], values: [], start: [0] }); }) as Error).message).toContain('needs ids.length + 1');
  expect((thrown(() => { checkPinValues('values'); }) as Error).message).toContain('got string');
  checkCounts(new Map([['a', 1]]));
  checkPinValues(undefined);
});

test('a node glows while it keeps running, and goes dark holdMs after its last run', () => {
  const activity = new NodeActivity(100);
  const off: string[] = [];
  const darken = (id: string): void => { off.push(id); };
  expect(activity.ran('hits', 1, 0)).toBe(true); // lights up: the view adds the class
  expect(activity.ran('hits', 2, 16)).toBe(false); // still lit: no DOM work
  expect(activity.ran('paint', 1, 16)).toBe(true);
  expect(activity.expire(90, darken)).toBe(2);
  expect(activity.expire(116, darken)).toBe(0);
  expect(off).toEqual(['hits', 'paint']);
  expect(activity.total('hits')).toBe(3);
  expect(activity.isLit('hits')).toBe(false);
  activity.ran('hits', 1, 200);
  activity.reset(darken);
  expect(off).toEqual(['hits', 'paint', 'hits']);
  expect(activity.total('hits')).toBe(0);
});

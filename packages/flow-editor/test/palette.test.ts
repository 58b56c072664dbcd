import { FlowRegistry } from '@cuttle/flow';
import { expect, test } from 'vitest';
import { FLOW_PIN_COLOURS, FlowEditorError, FlowPalette } from '../src/index.ts';
import { hostRegistry, notARegistry } from './helpers.ts';

const palette = new FlowPalette(hostRegistry());
const types = (query: string, limit?: number): string[] => palette.search(query, limit).map((e) => e.type);

test('every registered type is there, the host\'s actions too, with pins and colours', () => {
  expect(palette.entries.length).toBe(hostRegistry().types().length);
  const effect = palette.entry('action/spawn_effect')!;
  expect(effect).toMatchObject({ category: 'action', name: 'spawn_effect', title: 'spawn effect', host: true, variableTyped: false });
  expect(effect.inputs.map((p) => [p.name, p.kind, p.valueType])).toEqual([
    ['in', 'event', undefined],
    ['name', 'data', 'string'],
  ]);
  expect(effect.inputs[1]!.colour).toBe(FLOW_PIN_COLOURS.string);
  expect(palette.entry('variable/get')).toMatchObject({ host: false, variableTyped: true });
  expect(palette.entry('math/teleport')).toBeUndefined();
});

test('words in any order, case-insensitive, best match first', () => {
  expect(types('math add')[0]).toBe('math/add');
  expect(types('ADD MATH')[0]).toBe('math/add');
  expect(types('add')[0]).toBe('math/add');
  expect(types('spawn')).toEqual(['action/spawn_effect', 'event/unit_spawned']);
  expect(types('sound')[0]).toBe('action/play_sound');
  expect(types('play')[0]).toBe('action/play_sound');
  expect(types('branch')).toEqual(['logic/branch']);
  expect(types('timer')[0]).toBe('event/timer');
  expect(types('square root')).toEqual(['math/sqrt']); // from the description
  expect(types('math nothing')).toEqual([]);
});

test('paths: a category prefix lists the category, a partial path narrows it', () => {
  const logic = types('logic/');
  expect(logic.length).toBeGreaterThan(5);
  expect(logic.every((t) => t.startsWith('logic/'))).toBe(true);
  expect(types('action/')).toEqual(expect.arrayContaining(['action/log', 'action/set_title', 'action/destroy_unit']));
  expect(types('logic/co')).toEqual(['logic/compare', 'logic/counter']);
  expect(types('math/a')).toEqual(['math/add', 'math/abs']); // equal matches keep the registry's order
});

test('an empty query lists all in registry order; limit cuts the list', () => {
  expect(types('')).toEqual(hostRegistry().types().map((t) => t.name));
  expect(types('  ', 3)).toHaveLength(3);
  expect(types('math', 2)).toHaveLength(2);
});

test('a palette of a plain registry has no actions; bad arguments are refused', () => {
  expect(new FlowPalette(new FlowRegistry()).search('action/')).toEqual([]);
  expect(() => new FlowPalette(notARegistry)).toThrow(FlowEditorError);
  expect(() => palette.search(5 as unknown as string)).toThrow(FlowEditorError);
});

// The node types every registry starts with: events, logic, math and variables. Each entry
// pairs the socket description tools see with the op id and state the compiler lays out.
import type { FlowBuiltinEvent, FlowNodeTypeInfo, FlowSettingSpec, FlowSocketSpec } from './api.ts';
import { COMPARE_OPS, Op } from './blob-layout.ts';

/** A registered node type: what tools see plus what the compiler needs to lay it out. */
export interface NodeTypeDef extends FlowNodeTypeInfo {
  op: number;
  /** Per-instance state slots beyond the outputs (counters, timers, flags). */
  stateSlots: number;
  /** Template values of the state slots, from the node's settings. */
  initialState?: (settings: Readonly<Record<string, boolean | string>>) => readonly number[];
  /** Advanced by update(dt) (delays, timers). */
  ticks: boolean;
  /** Which host call fires the node, for event nodes. */
  event?: FlowBuiltinEvent | 'external';
}

const f = (name: string, def?: number): FlowSocketSpec => (def === undefined ? { name, type: 'float' } : { name, type: 'float', default: def });
const b = (name: string): FlowSocketSpec => ({ name, type: 'bool' });

function def(partial: Partial<NodeTypeDef> & Pick<NodeTypeDef, 'name' | 'op' | 'description'>): NodeTypeDef {
  return { eventInputs: [], eventOutputs: [], inputs: [], outputs: [], settings: [], stateSlots: 0, ticks: false, ...partial };
}

function math(name: string, op: number, inputs: readonly FlowSocketSpec[], description: string): NodeTypeDef {
  return def({ name: `math/${name}`, op, inputs, outputs: [f('result')], description });
}

const variableSetting: FlowSettingSpec = { name: 'variable', type: 'string' };

// Built by a pure call, so a bundle that never reads the table (one that imports a constant of
// this package, say) drops it.
export const STANDARD_LIBRARY: readonly NodeTypeDef[] = /* @__PURE__ */ (() => [
  def({ name: 'event/level_loaded', op: Op.levelLoaded, eventOutputs: ['out'], event: 'level_loaded', description: 'Fires when the level finishes loading.' }),
  def({
    name: 'event/unit_spawned',
    op: Op.unitSpawned,
    eventOutputs: ['out'],
    outputs: [{ name: 'unit', type: 'unit' }],
    event: 'unit_spawned',
    description: 'Fires when the unit is spawned; `unit` is its id.',
  }),
  def({
    name: 'event/collision',
    op: Op.collision,
    eventOutputs: ['out'],
    outputs: [{ name: 'actor', type: 'unit' }],
    event: 'collision',
    description: 'Fires when something collides with the unit; `actor` is what hit it.',
  }),
  def({
    name: 'event/external',
    op: Op.external,
    eventOutputs: ['out'],
    outputs: [f('value')],
    settings: [{ name: 'name', type: 'string' }],
    event: 'external',
    description: 'Fires when the game sends the named event; `value` is its argument.',
  }),
  def({
    name: 'event/timer',
    op: Op.timer,
    eventInputs: ['start', 'stop'],
    eventOutputs: ['tick'],
    inputs: [f('period', 1)],
    settings: [{ name: 'autostart', type: 'bool', default: true }],
    stateSlots: 2,
    initialState: (s) => [0, s.autostart === false ? 0 : 1],
    ticks: true,
    description: 'Fires `tick` every `period` seconds of update(dt) while running (at most once per update).',
  }),

  def({ name: 'logic/branch', op: Op.branch, eventInputs: ['in'], eventOutputs: ['true', 'false'], inputs: [b('condition')], description: 'Fires `true` or `false` by the condition.' }),
  def({ name: 'logic/and', op: Op.and, inputs: [b('a'), b('b')], outputs: [b('result')], description: 'a and b.' }),
  def({ name: 'logic/or', op: Op.or, inputs: [b('a'), b('b')], outputs: [b('result')], description: 'a or b.' }),
  def({ name: 'logic/not', op: Op.not, inputs: [b('a')], outputs: [b('result')], description: 'not a.' }),
  def({
    name: 'logic/compare',
    op: Op.compare,
    inputs: [f('a'), f('b')],
    outputs: [b('result')],
    settings: [{ name: 'op', type: 'string', default: '<', oneOf: COMPARE_OPS }],
    description: 'a <op> b, with op one of < <= == != >= >.',
  }),
  def({
    name: 'logic/gate',
    op: Op.gate,
    eventInputs: ['in', 'open', 'close', 'toggle'],
    eventOutputs: ['out'],
    settings: [{ name: 'open', type: 'bool', default: true }],
    stateSlots: 1,
    initialState: (s) => [s.open === false ? 0 : 1],
    description: 'Passes `in` to `out` while open.',
  }),
  def({ name: 'logic/once', op: Op.once, eventInputs: ['in', 'reset'], eventOutputs: ['out'], stateSlots: 1, description: 'Passes `in` to `out` the first time only, until `reset`.' }),
  def({
    name: 'logic/counter',
    op: Op.counter,
    eventInputs: ['in', 'reset'],
    eventOutputs: ['out', 'reached'],
    inputs: [{ name: 'target', type: 'int', default: 0 }],
    outputs: [{ name: 'count', type: 'int' }],
    description: 'Counts `in`, fires `out` each time and then `reached` when count equals a positive target.',
  }),
  def({ name: 'logic/sequence', op: Op.sequence, eventInputs: ['in'], eventOutputs: ['out0', 'out1', 'out2', 'out3'], description: 'Fires out0..out3 in order, each cascade finishing before the next.' }),
  def({
    name: 'logic/delay',
    op: Op.delay,
    eventInputs: ['in', 'cancel'],
    eventOutputs: ['out'],
    inputs: [f('seconds', 1)],
    stateSlots: 1,
    initialState: () => [-1],
    ticks: true,
    description: 'Fires `out` `seconds` of update(dt) after `in`; a new `in` restarts the wait.',
  }),

  math('add', Op.add, [f('a'), f('b')], 'a + b.'),
  math('sub', Op.sub, [f('a'), f('b')], 'a - b.'),
  math('mul', Op.mul, [f('a'), f('b')], 'a * b.'),
  math('div', Op.div, [f('a'), f('b', 1)], 'a / b.'),
  math('min', Op.min, [f('a'), f('b')], 'The smaller of a and b.'),
  math('max', Op.max, [f('a'), f('b')], 'The larger of a and b.'),
  math('neg', Op.neg, [f('a')], '-a.'),
  math('abs', Op.abs, [f('a')], 'Absolute value of a.'),
  math('sqrt', Op.sqrt, [f('a')], 'Square root of a.'),
  math('floor', Op.floor, [f('a')], 'a rounded down.'),
  math('sin', Op.sin, [f('a')], 'Sine of a (radians).'),
  math('cos', Op.cos, [f('a')], 'Cosine of a (radians).'),
  math('lerp', Op.lerp, [f('a'), f('b', 1), f('t')], 'a + (b - a) * t.'),
  math('clamp', Op.clamp, [f('value'), f('min'), f('max', 1)], 'value limited to [min, max].'),

  def({
    name: 'variable/get',
    op: Op.variableGet,
    outputs: [f('value')],
    settings: [variableSetting],
    variableTyped: true,
    description: 'Reads a graph variable (shares its slot: costs nothing at run time).',
  }),
  def({
    name: 'variable/set',
    op: Op.variableSet,
    eventInputs: ['in'],
    eventOutputs: ['out'],
    inputs: [f('value')],
    settings: [variableSetting],
    variableTyped: true,
    description: 'Writes `value` into a graph variable, then fires `out`.',
  }),
])();

// Flow graph sources the engine's Flow tests share.
import type { FlowGraphSource } from '@cuttle/flow';

/** A unit graph that adds `step` to its variable `ticks` every 0.05 s of update time. */
export function ticker(step: number): FlowGraphSource {
  return {
    flow: 1,
    kind: 'unit',
    variables: { ticks: { type: 'float', value: 0 } },
    nodes: [
      { id: 'tick', type: 'event/timer', inputs: { period: 0.05 } },
      { id: 'get', type: 'variable/get', settings: { variable: 'ticks' } },
      { id: 'add', type: 'math/add', inputs: { b: step } },
      { id: 'set', type: 'variable/set', settings: { variable: 'ticks' } },
    ],
    events: [{ from: 'tick.tick', to: 'set.in' }],
    links: [
      { from: 'get.value', to: 'add.a' },
      { from: 'add.result', to: 'set.value' },
    ],
  };
}

// The post's exploding barrel, as a graph source: collisions take health; at zero health a
// fuse burns for half a second, then the barrel explodes (effect, sound, a push for whoever
// hit it last) and removes itself. Shared by the README, the tests and the benchmarks.
import type { FlowGraphSource } from '../src/index.ts';

export const explodingBarrel: FlowGraphSource = {
  flow: 1,
  kind: 'unit',
  name: 'exploding_barrel',
  variables: { health: { type: 'float', value: 100 } },
  nodes: [
    { id: 'hit', type: 'event/collision' },
    { id: 'health', type: 'variable/get', settings: { variable: 'health' } },
    { id: 'damage', type: 'math/sub', inputs: { b: 40 } },
    { id: 'store', type: 'variable/set', settings: { variable: 'health' } },
    { id: 'dead', type: 'logic/compare', settings: { op: '<=' }, inputs: { b: 0 } },
    { id: 'check', type: 'logic/branch' },
    { id: 'once', type: 'logic/once' },
    { id: 'fuse', type: 'logic/delay', inputs: { seconds: 0.5 } },
    { id: 'boom', type: 'logic/sequence' },
    { id: 'effect', type: 'action/spawn_effect', inputs: { name: 'fx/barrel_explosion' } },
    { id: 'sound', type: 'action/play_sound', inputs: { name: 'sfx/explosion' } },
    { id: 'push', type: 'action/push_actor', inputs: { force: 50 } },
    { id: 'remove', type: 'action/destroy_unit' },
  ],
  events: [
    { from: 'hit.out', to: 'store.in' },
    { from: 'store.out', to: 'check.in' },
    { from: 'check.true', to: 'once.in' },
    { from: 'once.out', to: 'fuse.in' },
    { from: 'fuse.out', to: 'boom.in' },
    { from: 'boom.out0', to: 'effect.in' },
    { from: 'boom.out1', to: 'sound.in' },
    { from: 'boom.out2', to: 'push.in' },
    { from: 'boom.out3', to: 'remove.in' },
  ],
  links: [
    { from: 'health.value', to: 'damage.a' },
    { from: 'damage.result', to: 'store.value' },
    { from: 'health.value', to: 'dead.a' },
    { from: 'dead.result', to: 'check.condition' },
    { from: 'hit.actor', to: 'push.target' },
  ],
};

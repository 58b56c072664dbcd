// The scene's two Flow graphs. The crate graph is SJSON, the format artists' tools write; the
// level graph is a plain object. Both compile to one blob each.
import type { FlowGraphSource } from '@cuttle/flow';

/**
 * One per crate: clicks (and blasts from neighbours, as collisions) count up and tint it; the
 * third arms a blinking fuse, and 1.2 s later the crate explodes. The `editor` positions are
 * where the scene's graph editor draws the nodes (the compiler ignores them).
 */
export const CRATE_GRAPH = `
flow = 1
kind = "unit"
name = "crate"
nodes = [
  { id = "spawned"  type = "event/unit_spawned"  editor = { position = [0 0] } }
  { id = "click"    type = "event/external"  settings = { name = "click" }  editor = { position = [0 90] } }
  { id = "blast"    type = "event/collision"  editor = { position = [0 180] } }
  { id = "hits"     type = "logic/counter"   inputs = { target = 3 }  editor = { position = [210 100] } }
  { id = "fraction" type = "math/div"        inputs = { b = 3 }  editor = { position = [420 160] } }
  { id = "paint"    type = "action/tint"  editor = { position = [630 90] } }
  { id = "fresh"    type = "action/tint"     inputs = { amount = 0 }  editor = { position = [210 0] } }
  { id = "arm"      type = "logic/once"  editor = { position = [0 300] } }
  { id = "blink"    type = "event/timer"     inputs = { period = 0.12 }  settings = { autostart = false }  editor = { position = [210 300] } }
  { id = "flash"    type = "action/flash"  editor = { position = [420 300] } }
  { id = "fuse"     type = "logic/delay"     inputs = { seconds = 1.2 }  editor = { position = [210 410] } }
  { id = "boom"     type = "action/explode"  editor = { position = [420 410] } }
]
events = [
  { from = "spawned.out"  to = "fresh.in" }
  { from = "click.out"    to = "hits.in" }
  { from = "blast.out"    to = "hits.in" }
  { from = "hits.out"     to = "paint.in" }
  { from = "hits.reached" to = "arm.in" }
  { from = "arm.out"      to = "blink.start" }
  { from = "arm.out"      to = "fuse.in" }
  { from = "blink.tick"   to = "flash.in" }
  { from = "fuse.out"     to = "blink.stop" }
  { from = "fuse.out"     to = "boom.in" }
]
links = [
  { from = "hits.count"      to = "fraction.a" }
  { from = "fraction.result" to = "paint.amount" }
]
`;

/** The level's graph: counts explosions and reports the score. */
export const LEVEL_GRAPH: FlowGraphSource = {
  flow: 1,
  kind: 'level',
  name: 'flow_demo_level',
  nodes: [
    { id: 'loaded', type: 'event/level_loaded' },
    { id: 'exploded', type: 'event/external', settings: { name: 'exploded' } },
    { id: 'tally', type: 'logic/counter' },
    { id: 'show', type: 'action/score' },
    { id: 'zero', type: 'action/score', inputs: { count: 0 } },
  ],
  events: [
    { from: 'loaded.out', to: 'zero.in' },
    { from: 'exploded.out', to: 'tally.in' },
    { from: 'tally.out', to: 'show.in' },
  ],
  links: [{ from: 'tally.count', to: 'show.count' }],
};

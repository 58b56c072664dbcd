// The engine's Flow node types, for the page's editor: the standard library plus the engine's
// host actions with their pins (apps/engine/src/runtime/flow-actions.ts). The tool reaches the
// engine through its protocol only and never imports it, so the actions are described here;
// test/engine-flow-registry.test.ts checks this list against the engine's registry, so a new
// engine action fails the tool's tests until it is added. The page never runs a graph: `run`
// does nothing.
import { FlowRegistry, type FlowSocketSpec } from '@cuttle/flow';

/** The engine's host actions: name and input pins (none has outputs). */
export const ENGINE_FLOW_ACTIONS: readonly { name: string; inputs: readonly FlowSocketSpec[] }[] = [
  { name: 'log', inputs: [{ name: 'message', type: 'string' }] },
  { name: 'set_light_scale', inputs: [{ name: 'scale', type: 'float' }] },
  { name: 'set_walk_speed', inputs: [{ name: 'scale', type: 'float' }] },
  { name: 'set_title', inputs: [{ name: 'text', type: 'string' }] },
];

/** A registry that type-checks graphs as the engine's compiler does. */
export function createEngineFlowRegistry(): FlowRegistry {
  const registry = new FlowRegistry();
  for (const action of ENGINE_FLOW_ACTIONS) registry.defineAction({ name: action.name, inputs: action.inputs.map((s) => ({ ...s })), run: () => undefined });
  return registry;
}

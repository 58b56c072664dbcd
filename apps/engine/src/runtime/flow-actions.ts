// The engine's Flow actions. The compiler checks graphs against this registry and the runtime
// binds the same actions by name when it loads a blob, so both build it from here.
import { FlowRegistry } from '@cuttle/flow';

/** What Flow actions can do to the running world. */
export interface FlowHost {
  log(message: string): void;
  /** Scales the brightness of every light of the level. */
  setLightScale(scale: number): void;
  /** Changes the walking speed of every character. */
  setWalkSpeed(scale: number): void;
  setTitle(text: string): void;
}

/** The registry; without a host (the compiler) the actions only type-check graphs. */
export function createFlowRegistry(host?: FlowHost): FlowRegistry {
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'log', inputs: [{ name: 'message', type: 'string' }], run: (call) => { host?.log(call.string(0)); } });
  registry.defineAction({ name: 'set_light_scale', inputs: [{ name: 'scale', type: 'float' }], run: (call) => { host?.setLightScale(call.number(0)); } });
  registry.defineAction({ name: 'set_walk_speed', inputs: [{ name: 'scale', type: 'float' }], run: (call) => { host?.setWalkSpeed(call.number(0)); } });
  registry.defineAction({ name: 'set_title', inputs: [{ name: 'text', type: 'string' }], run: (call) => { host?.setTitle(call.string(0)); } });
  return registry;
}

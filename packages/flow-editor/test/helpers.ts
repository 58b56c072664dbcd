import { readFileSync } from 'node:fs';
import { FlowRegistry } from '@cuttle/flow';
import { FlowDocument } from '../src/index.ts';

export const fixture = (name: string): string => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');

const ignore = (): undefined => undefined;

/** The standard library plus the barrel's and the engine sample's actions, as a host would register them. */
export function hostRegistry(): FlowRegistry {
  const registry = new FlowRegistry();
  registry.defineAction({ name: 'spawn_effect', inputs: [{ name: 'name', type: 'string' }], run: ignore });
  registry.defineAction({ name: 'play_sound', inputs: [{ name: 'name', type: 'string' }], run: ignore });
  registry.defineAction({ name: 'push_actor', inputs: [{ name: 'target', type: 'unit' }, { name: 'force', type: 'float' }], run: ignore });
  registry.defineAction({ name: 'destroy_unit', run: ignore });
  registry.defineAction({ name: 'log', inputs: [{ name: 'message', type: 'string' }], run: ignore });
  registry.defineAction({ name: 'set_light_scale', inputs: [{ name: 'scale', type: 'float' }], run: ignore });
  registry.defineAction({ name: 'set_title', inputs: [{ name: 'text', type: 'string' }], run: ignore });
  return registry;
}

export function openBarrel(registry = hostRegistry()): FlowDocument {
  return FlowDocument.fromSource(fixture('barrel.flow'), registry);
}

/** Lines of `b` that differ from `a` at the same index (texts of equal line count), as [line number, a, b]. */
export function changedLines(a: string, b: string): [number, string, string][] {
  const la = a.split('\n');
  const lb = b.split('\n');
  if (la.length !== lb.length) throw new Error(`line counts differ: ${la.length} vs ${lb.length}`);
  const out: [number, string, string][] = [];
  for (let i = 0; i < la.length; i++) if (la[i] !== lb[i]) out.push([i + 1, la[i]!, lb[i]!]);
  return out;
}

/** Runs `fn`, expecting it to throw; returns what it threw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** Something that is not a FlowRegistry, as JavaScript callers may pass. */
export const notARegistry = JSON.parse('{}') as FlowRegistry;

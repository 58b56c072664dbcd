// The page's copy of the engine's Flow actions must match the engine's registry: the tool
// cannot import the engine at run time, so this test is where the two meet.
import { describe, expect, it } from 'vitest';
import { createFlowRegistry } from '../../engine/src/runtime/flow-actions.ts';
import { createEngineFlowRegistry } from '../src/page/engine-flow-registry.ts';

const shape = (registry: ReturnType<typeof createFlowRegistry>): unknown =>
  registry
    .types()
    .map((t) => ({ name: t.name, eventInputs: t.eventInputs, eventOutputs: t.eventOutputs, inputs: t.inputs, outputs: t.outputs, settings: t.settings }))
    .sort((a, b) => a.name.localeCompare(b.name));

describe('the page\'s engine Flow registry', () => {
  it('has the engine\'s node types with the same pins', () => {
    expect(shape(createEngineFlowRegistry())).toEqual(shape(createFlowRegistry()));
  });
});

// A node's pins from its type in the registry: event pins, then data pins, with their value
// types (variable/get and variable/set take their variable's) and colours. A node of a type the
// registry does not know gets the pins its links and constants name, marked unknown.
import { FLOW_VALUE_TYPES, type FlowNodeTypeInfo, type FlowRegistry, type FlowSocketSpec, type FlowValueType } from '@cuttle/flow';
import type { FlowNodePins, FlowPin, FlowPinDirection, FlowPinKind } from './api.ts';
import { pinColour } from './pin-colours.ts';
import type { LinkRecord, NodeRecord, VariableRecord } from './records.ts';

const zeroOf = (type: FlowValueType): number | boolean | string => (type === 'bool' ? false : type === 'string' ? '' : 0);

export function isValueType(value: unknown): value is FlowValueType {
  return typeof value === 'string' && (FLOW_VALUE_TYPES as readonly string[]).includes(value);
}

function eventPin(node: string, name: string, direction: FlowPinDirection): FlowPin {
  return { node, name, direction, kind: 'event', valueType: undefined, colour: pinColour('event', undefined), defaultValue: undefined, known: true };
}

function dataPin(node: string, spec: FlowSocketSpec, direction: FlowPinDirection, valueType: FlowValueType): FlowPin {
  const defaultValue = direction === 'input' ? (valueType === spec.type ? spec.default : undefined) ?? zeroOf(valueType) : undefined;
  return { node, name: spec.name, direction, kind: 'data', valueType, colour: pinColour('data', valueType), defaultValue, known: true };
}

/** Value type of the variable a variable-typed node names, if the graph declares it with a valid type. */
function variableType(node: NodeRecord, variables: (name: string) => VariableRecord | undefined): FlowValueType | undefined {
  const name = node.settings.variable;
  return typeof name === 'string' ? variables(name)?.type : undefined;
}

export function pinsOfType(node: NodeRecord, info: FlowNodeTypeInfo, variables: (name: string) => VariableRecord | undefined): FlowNodePins {
  const retype = info.variableTyped === true ? variableType(node, variables) : undefined;
  const inputs: FlowPin[] = [];
  const outputs: FlowPin[] = [];
  for (const name of info.eventInputs) inputs.push(eventPin(node.id, name, 'input'));
  for (const spec of info.inputs) inputs.push(dataPin(node.id, spec, 'input', retype ?? spec.type));
  for (const name of info.eventOutputs) outputs.push(eventPin(node.id, name, 'output'));
  for (const spec of info.outputs) outputs.push(dataPin(node.id, spec, 'output', retype ?? spec.type));
  return { inputs, outputs };
}

function unknownPin(node: string, name: string, direction: FlowPinDirection, kind: FlowPinKind): FlowPin {
  return { node, name, direction, kind, valueType: undefined, colour: pinColour(kind, undefined), defaultValue: undefined, known: false };
}

/** Pins of a node whose type is unknown: those its links and constants name, so the view can still draw them. */
export function pinsOfUnknown(node: NodeRecord, links: readonly LinkRecord[]): FlowNodePins {
  const inputs: FlowPin[] = [];
  const outputs: FlowPin[] = [];
  const seen = new Set<string>();
  const add = (list: FlowPin[], name: string, direction: FlowPinDirection, kind: FlowPinKind): void => {
    const key = `${direction}:${kind}:${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    list.push(unknownPin(node.id, name, direction, kind));
  };
  for (const link of links) {
    if (link.to.node === node.id) add(inputs, link.to.pin, 'input', link.kind);
    if (link.from.node === node.id) add(outputs, link.from.pin, 'output', link.kind);
  }
  for (const name of Object.keys(node.inputs)) add(inputs, name, 'input', 'data');
  return { inputs, outputs };
}

export function pinsOf(node: NodeRecord, registry: FlowRegistry, variables: (name: string) => VariableRecord | undefined, linksOfNode: () => readonly LinkRecord[]): FlowNodePins {
  const info = registry.get(node.type);
  return info === undefined ? pinsOfUnknown(node, linksOfNode()) : pinsOfType(node, info, variables);
}

/** The pin of `pins` with this direction and name (and kind, if given); 'ambiguous' when an event and a data pin share the name. */
export function findPin(pins: FlowNodePins, direction: FlowPinDirection, name: string, kind: FlowPinKind | undefined): FlowPin | 'ambiguous' | undefined {
  let found: FlowPin | undefined;
  for (const pin of direction === 'input' ? pins.inputs : pins.outputs) {
    if (pin.name !== name || (kind !== undefined && pin.kind !== kind)) continue;
    if (found !== undefined) return 'ambiguous';
    found = pin;
  }
  return found;
}

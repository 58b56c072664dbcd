// One colour per pin type, for views: the conventions of Unreal's Blueprints that designers
// already read (white execution pins, red booleans, green floats, magenta strings).
import type { FlowValueType } from '@cuttle/flow';
import type { FlowPinKind } from './api.ts';

/**
 * CSS colour of each pin type, after Unreal's Blueprints: white events, red booleans, green floats, teal ints, blue units, magenta strings, grey for unknown types.
 */
export const FLOW_PIN_COLOURS: Readonly<Record<FlowValueType | 'event' | 'unknown', string>> = {
  event: '#ffffff',
  float: '#9ccf3c',
  int: '#2fc1a8',
  bool: '#d9453f',
  unit: '#4a8fe0',
  string: '#d85fd0',
  unknown: '#808080',
};

/** The colour of a pin of this kind and value type (grey when the type is not known). */
export function pinColour(kind: FlowPinKind, valueType: FlowValueType | undefined): string {
  if (kind === 'event') return FLOW_PIN_COLOURS.event;
  return valueType === undefined ? FLOW_PIN_COLOURS.unknown : FLOW_PIN_COLOURS[valueType];
}

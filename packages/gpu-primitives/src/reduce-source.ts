import reduceWgsl from './shaders/reduce.wgsl?raw';
import type { ElementType, ReduceOp } from './api.ts';

const IDENTITY: Record<ReduceOp, Record<ElementType, string>> = {
  sum: { f32: '0.0', u32: '0u', i32: '0i' },
  // Identities are the extremes of each type, so an empty slice never wins.
  min: { f32: '0x1.fffffep+127f', u32: '0xffffffffu', i32: '2147483647i' },
  max: { f32: '-0x1.fffffep+127f', u32: '0u', i32: 'i32(-2147483648)' },
};

const COMBINE: Record<ReduceOp, string> = {
  sum: 'a + b',
  min: 'min(a, b)',
  max: 'max(a, b)',
};

/** The reduce kernel specialised for one operation and element type. */
export function reduceShaderSource(op: ReduceOp, type: ElementType): string {
  return [
    `alias T = ${type};`,
    `const IDENTITY: T = ${IDENTITY[op][type]};`,
    `fn combine(a: T, b: T) -> T { return ${COMBINE[op]}; }`,
    reduceWgsl,
  ].join('\n');
}

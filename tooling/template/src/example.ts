import type { ExampleOptions } from './api.ts';
import { __CLASS__Error } from './errors.ts';

/** Repeats `value` into a new Float32Array; the template's placeholder for real work. */
export function example(value: number, options: ExampleOptions): Float32Array {
  if (!Number.isInteger(options.times) || options.times < 0) {
    throw new __CLASS__Error(`times must be a non-negative integer, got ${options.times}.`);
  }
  return new Float32Array(options.times).fill(value);
}

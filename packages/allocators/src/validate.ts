import { AllocationArgumentError } from './errors.ts';

/** The alignment `allocate` uses when none is given: enough for any typed-array element. */
export const DEFAULT_ALIGN = 8;

/** Largest alignment accepted (1 GiB); bigger asks are almost surely a bug. */
export const MAX_ALIGN = 2 ** 30;

export function isPowerOfTwo(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= MAX_ALIGN && (value & (value - 1)) === 0;
}

export function alignUp(value: number, align: number): number {
  // Bit masking while it is exact (below 2^31), division beyond.
  return value < 0x4000_0000 ? (value + align - 1) & -align : Math.ceil(value / align) * align;
}

/** Throws AllocationArgumentError unless `size` is a positive integer and `align` a power of two. */
export function checkRequest(who: string, size: number, align: number): void {
  // `x >>> 0 === x` holds exactly for whole numbers in [0, 2^32): one test for NaN, fractions,
  // negatives and out-of-range values, cheap enough for every allocate.
  if (size >>> 0 !== size || size === 0 || align >>> 0 !== align || align === 0 || align > MAX_ALIGN || (align & (align - 1)) !== 0) {
    throwRequestError(who, size, align);
  }
}

function throwRequestError(who: string, size: number, align: number): never {
  if (!Number.isInteger(size) || size <= 0 || size > 0xffff_ffff) {
    throw new AllocationArgumentError(`${who}: size must be a positive whole number of bytes below 4 GiB, got ${String(size)}.`);
  }
  throw new AllocationArgumentError(`${who}: align must be a power of two between 1 and 2^30, got ${String(align)}.`);
}

/** Throws AllocationArgumentError unless `value` is a positive integer (constructor options). */
export function checkPositiveInteger(who: string, what: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) {
    throw new AllocationArgumentError(`${who}: ${what} must be a positive integer, got ${String(value)}.`);
  }
}

/** Internal invariant check: a failure is a bug in this package, not in the caller. */
export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`@cuttle/allocators internal error: ${message}`);
}

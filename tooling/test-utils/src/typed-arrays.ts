// vitest's deep equality walks typed arrays element by element through generic code, which
// takes seconds on millions of elements. This compares with a plain loop and reports the first
// difference with some context.

type NumericArray = ArrayLike<number> & { readonly length: number };

/** Index of the first element where `a` and `b` differ (-1 when equal, comparing lengths too). */
export function firstMismatch(a: NumericArray, b: NumericArray): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return i;
  return a.length === b.length ? -1 : n;
}

/** Throws an assertion-style error naming the first mismatch, or returns when equal. */
export function expectArraysEqual(actual: NumericArray, expected: NumericArray, label = 'arrays'): void {
  const at = firstMismatch(actual, expected);
  if (at < 0) return;
  const window = (array: NumericArray): string => Array.from({ length: Math.min(5, Math.max(0, array.length - at)) }, (_, k) => array[at + k]).join(', ');
  throw new Error(
    `${label}: first difference at index ${at} of ${actual.length} (expected length ${expected.length}): ` +
      `actual [${window(actual)}] vs expected [${window(expected)}]`,
  );
}

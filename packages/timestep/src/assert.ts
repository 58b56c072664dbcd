import { TimestepError } from './errors.ts';

/** Throws a TimestepError unless `value` is a finite number at or above `min`. */
export function requireFinite(name: string, value: number, min: number, hint = ''): void {
  if (!Number.isFinite(value) || value < min) {
    throw new TimestepError(`${name} must be a finite number >= ${min}, got ${value}.${hint ? ` ${hint}` : ''}`);
  }
}

/** Throws a TimestepError unless `value` lies in [min, max]. */
export function requireInRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new TimestepError(`${name} must be a number in [${min}, ${max}], got ${value}.`);
  }
}

/** Throws a TimestepError unless `value` is an integer at or above `min`. */
export function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new TimestepError(`${name} must be an integer >= ${min}, got ${value}.`);
  }
}

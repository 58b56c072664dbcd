import { RenderError } from '../errors.ts';
import { NORMAL_METHODS, type NormalMethod } from './api.ts';

export function requireNormalMethod(value: unknown, name: string): NormalMethod {
  if (!NORMAL_METHODS.includes(value as NormalMethod)) throw new RenderError(`${name} must be 'improved' or 'naive', got ${String(value)}.`);
  return value as NormalMethod;
}

// Checks of values a command is asked to write: inline constants on inputs, settings, positions.
import type { FlowConstant, FlowSettingSpec, FlowValueType } from '@cuttle/flow';
import type { FlowPoint, FlowRect } from './api.ts';
import { FlowEditorError } from './errors.ts';

/** What is wrong with `value` as a constant of `type` (undefined: any constant), or undefined when it fits. */
export function constantProblem(value: unknown, type: FlowValueType | undefined): string | undefined {
  if (type === undefined) return typeof value === 'boolean' || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? undefined : 'must be a number, a boolean or a string';
  if (type === 'bool') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (type === 'string') return typeof value === 'string' ? undefined : 'must be a string';
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a finite number';
  if ((type === 'int' || type === 'unit') && !Number.isInteger(value)) return 'must be an integer';
  return undefined;
}

export function isConstant(value: unknown): value is FlowConstant {
  return constantProblem(value, undefined) === undefined;
}

/** What is wrong with `value` for the setting, or undefined when it fits. */
export function settingProblem(value: unknown, spec: FlowSettingSpec): string | undefined {
  if (spec.type === 'bool') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (spec.oneOf && !spec.oneOf.includes(value)) return `must be one of ${spec.oneOf.join(' ')}`;
  return undefined;
}

export function checkPoint(point: unknown, what: string): FlowPoint {
  const p = point as Partial<FlowPoint> | null;
  if (typeof p !== 'object' || p === null || !Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new FlowEditorError('bad-argument', `${what} must be { x, y } with finite numbers, got ${JSON.stringify(point)}.`);
  }
  return { x: p.x!, y: p.y! };
}

export function checkRect(rect: unknown, what: string): FlowRect {
  const r = rect as Partial<FlowRect> | null;
  if (typeof r !== 'object' || r === null || ![r.x, r.y, r.width, r.height].every(Number.isFinite) || r.width! < 0 || r.height! < 0) {
    throw new FlowEditorError('bad-argument', `${what} must be { x, y, width, height } with finite numbers and a size of 0 or more, got ${JSON.stringify(rect)}.`);
  }
  return { x: r.x!, y: r.y!, width: r.width!, height: r.height! };
}

export function checkText(text: unknown, what: string): string {
  if (typeof text !== 'string') throw new FlowEditorError('bad-argument', `${what} must be a string, got ${typeof text}.`);
  return text;
}

/** A list of ids given to a command: an array of strings. */
export function checkIds(ids: unknown, what: string): readonly string[] {
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw new FlowEditorError('bad-argument', `${what} must be an array of ids.`);
  return [...new Set(ids)];
}

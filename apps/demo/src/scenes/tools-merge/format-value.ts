// Values as a cell of the diff table shows them: SJSON-like and short (`[3 0.5 9]`,
// `{ unit = "units/crate" … }`), "absent" for a value one version does not have, and a colour
// swatch beside anything that is a colour.
import type { JsonValue, Path } from '@cuttle/tools-merge';
import { isLeafArray, isPlainObject } from './json.ts';

const MAX_CHARS = 96;

function inline(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(' ')}]`;
  // The id is in the field's label already.
  return `{ ${Object.keys(value).filter((k) => k !== 'id').map((k) => `${k} = ${inline(value[k]!)}`).join(' ')} }`;
}

export function shortValue(value: JsonValue | undefined): string {
  if (value === undefined) return 'absent';
  const text = inline(value);
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 2)} …` : text;
}

/** An rgb() for a 3-number array under a key named like a colour (`color`, `base_color`). */
export function colorOf(path: Path, value: JsonValue | undefined): string | undefined {
  const key = path[path.length - 1];
  if (typeof key !== 'string' || !/colou?r$/i.test(key) || !Array.isArray(value) || !isLeafArray(value) || value.length < 3) return undefined;
  const [r, g, b] = value.map((v) => (typeof v === 'number' ? Math.round(Math.min(1, Math.max(0, v)) * 255) : 0));
  return `rgb(${r} ${g} ${b})`;
}

/** A cell's content: the value, with a swatch when it is a colour. */
export function valueNode(path: Path, value: JsonValue | undefined): HTMLElement {
  const span = document.createElement('span');
  span.className = value === undefined ? 'value absent' : isPlainObject(value) ? 'value object' : 'value';
  const color = colorOf(path, value);
  if (color) {
    const swatch = document.createElement('i');
    swatch.className = 'swatch';
    swatch.style.background = color;
    span.append(swatch);
  }
  span.append(shortValue(value));
  if (isPlainObject(value)) span.title = inline(value);
  return span;
}

/**
 * A field for people, in two parts: the unit it belongs to (`lamp_08`, the last id on the path)
 * and the field inside it (`light.color`); paths outside units have no unit part.
 */
export function fieldLabel(path: Path): { unit: string; field: string } {
  let last = -1;
  for (let i = 0; i < path.length; i++) if (typeof path[i] === 'object') last = i;
  const segment = path[last];
  const unit = typeof segment === 'object' ? String(segment.id) : '';
  let field = '';
  for (const seg of path.slice(last + 1)) {
    if (typeof seg === 'number') field += `[${seg}]`;
    else if (typeof seg === 'string') field += (field.length > 0 ? '.' : '') + seg;
    else field += `[${String(seg.id)}]`;
  }
  return { unit, field: field || (unit ? '(whole unit)' : '(root)') };
}

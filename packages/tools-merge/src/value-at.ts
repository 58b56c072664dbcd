// The value at a path of a document: object keys, array indices, and ids inside id arrays.
import type { JsonValue, Path } from './api.ts';
import { checkIdKeys, commonIdKind, elementId } from './id-array.ts';
import { isObject } from './own.ts';

/** The value at `path`, or undefined when the path does not exist in `doc`. */
export function valueAt(doc: JsonValue | undefined, path: Path, idKeys?: readonly string[]): JsonValue | undefined {
  const keys = checkIdKeys(idKeys);
  let node = doc;
  for (const seg of path) {
    if (node === undefined) return undefined;
    if (typeof seg === 'string') {
      node = isObject(node) && Object.hasOwn(node, seg) ? node[seg] : undefined;
    } else if (typeof seg === 'number') {
      node = Array.isArray(node) ? node[seg] : undefined;
    } else if (Array.isArray(node)) {
      const kind = commonIdKind(keys, node);
      node = kind === 'none' || kind === 'empty' ? undefined : node.find((e) => elementId(e, kind) === seg.id);
    } else {
      return undefined;
    }
  }
  return node;
}

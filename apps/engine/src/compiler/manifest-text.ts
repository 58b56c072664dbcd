// The manifest's bytes, exactly `JSON.stringify(manifest, null, 1)` in UTF-8, written again by
// every compile of a --watch loop. A large project's manifest is 2 MB of JSON; stringifying and
// encoding it whole was the loop's largest fixed cost (7 ms on the 2-core machine, 11-13 ms on
// the 16-core host) when one file changed. So `sources` and `resources` are encoded in runs of
// CHUNK members, and a run whose keys and values are the very ones of the last write (values
// compared by identity: a kept manifest entry is the same object) reuses its bytes. The file is
// written from the runs as they are, never joined into one string.

/** Members per reusable run: small enough that one changed file re-encodes little. */
const CHUNK = 64;

interface Chunk {
  keys: string[];
  values: unknown[];
  bytes: Uint8Array;
}

/** The runs of the last bytes made, by section; kept by the caller between compiles. */
export class ManifestTextCache {
  readonly sections = new Map<string, Chunk[]>();
  /** The text between the runs, last time. */
  between: string[] = [];
  /** Whether the last bytes made were those made before them (nothing to write again). */
  unchanged = false;
}

const encoder = new TextEncoder();
const RUN_SEPARATOR = encoder.encode(',\n');
const SECTION_END = encoder.encode('\n }');

/** `JSON.stringify(value, null, 1)` for a value one level into the document. */
function nested(value: unknown): string {
  return JSON.stringify(value, null, 1).replaceAll('\n', '\n ');
}

/** One run of members of an object one level into the document, as they appear inside its braces. */
function encodeRun(keys: string[], values: unknown[]): Uint8Array {
  // No prototype: a member named __proto__ is a member.
  const part = Object.create(null) as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) part[keys[i]!] = values[i];
  // "{\n  <members>\n }": drop the braces.
  return encoder.encode(nested(part).slice(2, -3));
}

/** The runs of an object one level into the document, reusing those of `before` that are unchanged. */
function runsOf(object: Record<string, unknown>, before: readonly Chunk[]): Chunk[] {
  const after: Chunk[] = [];
  // The old run at this position, and how many of its members agree so far; once one differs
  // (`keys` defined), the run's members are gathered anew.
  let old = before[0];
  let agreed = 0;
  let keys: string[] | undefined;
  let values: unknown[] = [];
  let size = 0;
  const close = (): void => {
    if (keys === undefined && agreed === old?.keys.length) after.push(old);
    else {
      if (keys === undefined) {
        // Shorter than the old run (the section's last run lost members).
        keys = old?.keys.slice(0, agreed) ?? [];
        values = old?.values.slice(0, agreed) ?? [];
      }
      after.push({ keys, values, bytes: encodeRun(keys, values) });
    }
    old = before[after.length];
    agreed = 0;
    keys = undefined;
    values = [];
    size = 0;
  };
  // Object.keys: the order JSON.stringify writes (integer-like keys first).
  for (const key of Object.keys(object)) {
    const value = object[key];
    // JSON leaves out undefined members; so do the runs.
    if (value === undefined) continue;
    if (keys === undefined && old !== undefined && agreed < old.keys.length && old.keys[agreed] === key && old.values[agreed] === value) agreed++;
    else {
      keys ??= old?.keys.slice(0, agreed) ?? [];
      if (keys.length === agreed) values = old?.values.slice(0, agreed) ?? [];
      keys.push(key);
      values.push(value);
    }
    if (++size === CHUNK) close();
  }
  if (size > 0) close();
  return after;
}

/**
 * The manifest as `JSON.stringify(manifest, null, 1)` writes it, in UTF-8, as parts to write one
 * after another; `cache`'s unchanged runs are reused and the cache updated.
 */
export function manifestBytes(manifest: object, cache: ManifestTextCache): Uint8Array[] {
  const parts: Uint8Array[] = [];
  const between: string[] = [];
  let unchanged = true;
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(manifest)) {
    if (value === undefined) continue;
    text += `${first ? '' : ','}\n ${JSON.stringify(key)}: `;
    first = false;
    const before = cache.sections.get(key) ?? [];
    const runs = (key === 'sources' || key === 'resources') && typeof value === 'object' && value !== null && !Array.isArray(value)
      ? runsOf(value as Record<string, unknown>, before)
      : undefined;
    if (runs === undefined) {
      text += nested(value);
      continue;
    }
    cache.sections.set(key, runs);
    unchanged &&= runs.length === before.length && runs.every((run, i) => run === before[i]);
    if (runs.length === 0) {
      text += '{}';
      continue;
    }
    between.push(text);
    parts.push(encoder.encode(`${text}{\n`));
    text = '';
    runs.forEach((run, i) => {
      if (i > 0) parts.push(RUN_SEPARATOR);
      parts.push(run.bytes);
    });
    parts.push(SECTION_END);
  }
  text = first ? '{}' : `${text}\n}`;
  between.push(text);
  parts.push(encoder.encode(text));
  cache.unchanged = unchanged && between.length === cache.between.length && between.every((t, i) => t === cache.between[i]);
  cache.between = between;
  return parts;
}

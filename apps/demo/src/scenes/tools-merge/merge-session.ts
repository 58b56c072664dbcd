// One 3-way merge of the level and the person resolving it, without any DOM: base, A's and B's
// texts in; the merge, its conflicts grouped by field, the picks, the resolved document and its
// SJSON text (comments of all three versions kept) out. A text that does not parse keeps the
// last good version of that side and reports where it broke.
import {
  merge,
  mergeComments,
  parseSjsonDocument,
  sjsonStyleOf,
  SjsonParseError,
  writeSjson,
  type JsonValue,
  type MergeResult,
  type SjsonDocument,
} from '@cuttle/tools-merge';
import { groupConflicts, resolve, type ConflictGroup, type Side } from './conflicts.ts';
import { fieldRows, type FieldRow } from './field-changes.ts';
import { placedUnits, type PlacedUnit } from './placed-units.ts';

export interface MergeView {
  base: JsonValue;
  a: JsonValue;
  b: JsonValue;
  /** The merge as the package returns it (B wins every conflict until a side is picked). */
  result: MergeResult;
  groups: readonly ConflictGroup[];
  rows: readonly FieldRow[];
  /** The merged document with the picks written in: what the map draws. */
  resolved: JsonValue;
  /** `resolved` as SJSON, in the base file's layout, with the comments of all three versions. */
  text: string;
  units: readonly PlacedUnit[];
  open: number;
}

function parse(text: string, source: string): SjsonDocument | string {
  try {
    return parseSjsonDocument(text, { source });
  } catch (error) {
    if (error instanceof SjsonParseError) return error.message;
    throw error;
  }
}

export class MergeSession {
  readonly baseText: string;
  readonly #base: SjsonDocument;
  #a: SjsonDocument;
  #b: SjsonDocument;
  /** Picks by conflict key and the two values picked between: a later edit of either value reopens it. */
  readonly #choices = new Map<string, Side>();
  #view!: MergeView;

  constructor(baseText: string) {
    this.baseText = baseText;
    const base = parse(baseText, 'base');
    if (typeof base === 'string') throw new Error(`the base level does not parse: ${base}`);
    this.#base = this.#a = this.#b = base;
    this.#update();
  }

  get view(): MergeView {
    return this.#view;
  }

  /** New texts for A and B; returns each side's parse error, if any (that side keeps its last good version). */
  edit(aText: string, bText: string): { a?: string; b?: string } {
    const a = parse(aText, 'A');
    const b = parse(bText, 'B');
    if (typeof a !== 'string') this.#a = a;
    if (typeof b !== 'string') this.#b = b;
    this.#update();
    return { ...(typeof a === 'string' ? { a } : {}), ...(typeof b === 'string' ? { b } : {}) };
  }

  pick(key: string, side: Side): void {
    const group = this.#view.groups.find((g) => g.key === key);
    if (!group) return;
    this.#choices.set(choiceKey(group), side);
    this.#update();
  }

  #update(): void {
    const base = this.#base.value;
    const a = this.#a.value;
    const b = this.#b.value;
    const result = merge(base, a, b);
    const groups = groupConflicts(result.conflicts, base, a, b);
    for (const group of groups) {
      const choice = this.#choices.get(choiceKey(group));
      if (choice) group.choice = choice;
    }
    const resolved = resolve(result.merged, groups, a, b);
    const { comments } = mergeComments(this.#base.comments, this.#a.comments, this.#b.comments, resolved);
    this.#view = {
      base,
      a,
      b,
      result,
      groups,
      rows: fieldRows(base, a, b, resolved, groups),
      resolved,
      text: writeSjson(resolved, { ...sjsonStyleOf(this.baseText), comments }),
      units: placedUnits(resolved),
      open: groups.filter((g) => g.choice === undefined).length,
    };
  }
}

function choiceKey(group: ConflictGroup): string {
  return `${group.key}\u0000${JSON.stringify(group.a ?? null)}\u0000${JSON.stringify(group.b ?? null)}`;
}

// The node palette: every type of a FlowRegistry (the standard library and the host's actions)
// with its pins, searchable the way designers type: words in any order ("math add", "spawn"),
// or a path ("logic/", "action/play"). Better matches first: a whole name, then the start of a
// name or of one of its words, then the category, then anywhere in the type, then the description.
import type { FlowNodeTypeInfo, FlowRegistry, FlowValueType } from '@cuttle/flow';
import type { FlowPinKind } from './api.ts';
import { FlowEditorError } from './errors.ts';
import { pinColour } from './pin-colours.ts';

/** A pin as the palette lists it. */
export interface FlowPalettePin {
  /** The pin's name. */
  readonly name: string;
  /** Event or data. */
  readonly kind: FlowPinKind;
  /** For variable-typed nodes, the type before a variable is chosen (the node takes its variable's). */
  readonly valueType: FlowValueType | undefined;
  /** CSS colour for the pin (see {@link FLOW_PIN_COLOURS}). */
  readonly colour: string;
}

/** One node type as the palette lists it: names, description and pins. */
export interface FlowPaletteEntry {
  /** The node type, e.g. 'math/add', 'action/spawn_effect'. */
  readonly type: string;
  /** The part before the slash: 'event', 'logic', 'math', 'variable', 'action'. */
  readonly category: string;
  /** The part after it, e.g. 'add', 'spawn_effect'. */
  readonly name: string;
  /** The name for people: 'spawn effect'. */
  readonly title: string;
  /** What the node does, from the registry. */
  readonly description: string;
  /** A host action (registered with defineAction) rather than a standard node. */
  readonly host: boolean;
  /** The value pins take the type of the variable the node names. */
  readonly variableTyped: boolean;
  /** Input pins, events first. */
  readonly inputs: readonly FlowPalettePin[];
  /** Output pins, events first. */
  readonly outputs: readonly FlowPalettePin[];
}

interface Indexed {
  entry: FlowPaletteEntry;
  order: number;
  type: string;
  name: string;
  category: string;
  words: string[];
  description: string[];
}

function pinsOf(info: FlowNodeTypeInfo, side: 'in' | 'out'): FlowPalettePin[] {
  const events = side === 'in' ? info.eventInputs : info.eventOutputs;
  const data = side === 'in' ? info.inputs : info.outputs;
  return [
    ...events.map((name) => ({ name, kind: 'event' as const, valueType: undefined, colour: pinColour('event', undefined) })),
    ...data.map((s) => ({ name: s.name, kind: 'data' as const, valueType: s.type, colour: pinColour('data', s.type) })),
  ];
}

function entryOf(info: FlowNodeTypeInfo): FlowPaletteEntry {
  const slash = info.name.indexOf('/');
  const category = slash < 0 ? '' : info.name.slice(0, slash);
  const name = info.name.slice(slash + 1);
  return {
    type: info.name,
    category,
    name,
    title: name.replace(/_/g, ' '),
    description: info.description,
    host: category === 'action',
    variableTyped: info.variableTyped === true,
    inputs: pinsOf(info, 'in'),
    outputs: pinsOf(info, 'out'),
  };
}

/** How well one query word matches an entry (0: not at all). */
function wordScore(item: Indexed, token: string): number {
  if (token.includes('/')) {
    if (item.type.startsWith(token)) return 100;
    return item.type.includes(token) ? 40 : 0;
  }
  if (item.name === token) return 100;
  if (item.name.startsWith(token)) return 80;
  if (item.words.some((w) => w.startsWith(token))) return 60;
  if (item.category === token) return 50;
  if (item.category.startsWith(token)) return 40;
  if (item.type.includes(token)) return 25;
  if (item.description.some((w) => w.startsWith(token))) return 10;
  return 0;
}

/**
 * The node palette: every type of a FlowRegistry with its pins, searchable the way designers type (words in any order such as `math add`, or a path such as `logic/`), better matches first.
 */
export class FlowPalette {
  readonly #items: Indexed[];

  /** Every node type the registry has now (define the host's actions first). */
  constructor(registry: FlowRegistry) {
    const given: unknown = registry;
    if (typeof given !== 'object' || given === null || typeof (given as Partial<FlowRegistry>).types !== 'function') throw new FlowEditorError('bad-argument', 'FlowPalette needs a FlowRegistry.');
    this.#items = registry.types().map((info, order) => {
      const entry = entryOf(info);
      return {
        entry,
        order,
        type: entry.type.toLowerCase(),
        name: entry.name.toLowerCase(),
        category: entry.category.toLowerCase(),
        words: entry.name.toLowerCase().split(/[_\s-]+/),
        description: entry.description.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== ''),
      };
    });
  }

  /** Every entry, in the registry's order (standard library first, then the host's actions). */
  get entries(): FlowPaletteEntry[] {
    return this.#items.map((i) => i.entry);
  }

  /** The entry of a node type (e.g. `'math/add'`), or undefined when the registry has no such type. */
  entry(type: string): FlowPaletteEntry | undefined {
    return this.#items.find((i) => i.entry.type === type)?.entry;
  }

  /**
   * Entries matching every word of `query` (case-insensitive), best first; an empty query lists
   * every entry. A word with a slash matches the type path ('logic/', 'action/play').
   */
  search(query: string, limit = Infinity): FlowPaletteEntry[] {
    const given: unknown = query;
    if (typeof given !== 'string') throw new FlowEditorError('bad-argument', `A palette search takes text, got ${typeof given}.`);
    const tokens = query.toLowerCase().split(/\s+/).filter((t) => t !== '');
    if (tokens.length === 0) return this.entries.slice(0, limit);
    const scored: { item: Indexed; score: number }[] = [];
    for (const item of this.#items) {
      let score = 0;
      for (const token of tokens) {
        const s = wordScore(item, token);
        if (s === 0) {
          score = 0;
          break;
        }
        score += s;
      }
      if (score > 0) scored.push({ item, score });
    }
    scored.sort((a, b) => b.score - a.score || a.item.type.length - b.item.type.length || a.item.order - b.item.order);
    return scored.slice(0, limit).map((s) => s.item.entry);
  }
}

// Boxes of a document's nodes in graph units, cached by record identity (records are replaced on
// change, so a stale box is never returned), with the hit tests the pointer needs: the node or
// pin under a point and the nodes inside a selection rectangle. DOM-free, so it is unit-tested.
import type { FlowEditorNode, FlowNodePins, FlowPin, FlowPinDirection, FlowPinRef, FlowPoint, FlowRect } from '../api.ts';
import type { FlowDocument } from '../flow-document.ts';
import { PIN_HIT_RADIUS, nodeRect, pinAnchor, rectContainsPoint, rectsIntersect, unionRect } from './geometry.ts';

interface Entry {
  record: FlowEditorNode;
  pins: FlowNodePins | undefined;
  rect: FlowRect;
}

/** A pin found under the pointer. */
export interface PinHit {
  /** The pin. */
  readonly pin: FlowPin;
  /** Which side of the node it is on. */
  readonly direction: FlowPinDirection;
  /** Where links attach to it, in graph units. */
  readonly anchor: FlowPoint;
}

/**
 * Boxes of a document's nodes in graph units, cached by record identity, with the hit tests the pointer needs: the node or pin under a point and the nodes inside a rectangle. Needs no DOM.
 */
export class GraphLayout {
  readonly #doc: FlowDocument;
  readonly #entries = new Map<string, Entry>();

  constructor(doc: FlowDocument) {
    this.#doc = doc;
  }

  #entry(id: string): Entry | undefined {
    const record = this.#doc.node(id);
    if (record === undefined) {
      this.#entries.delete(id);
      return undefined;
    }
    const pins = this.#doc.pins(id);
    let entry = this.#entries.get(id);
    if (entry?.record !== record || entry.pins !== pins) {
      entry = { record, pins, rect: nodeRect(record.x, record.y, pins) };
      this.#entries.set(id, entry);
    }
    return entry;
  }

  /** The node's box, or undefined when there is no such node. */
  rect(id: string): FlowRect | undefined {
    return this.#entry(id)?.rect;
  }

  /** Where a pin's links attach; undefined for a missing node or pin. */
  anchor(ref: FlowPinRef, direction: FlowPinDirection): FlowPoint | undefined {
    const entry = this.#entry(ref.node);
    if (entry?.pins === undefined) return undefined;
    const side = direction === 'input' ? entry.pins.inputs : entry.pins.outputs;
    const index = side.findIndex((p) => p.name === ref.pin && (ref.kind === undefined || p.kind === ref.kind));
    return index < 0 ? undefined : pinAnchor(entry.record.x, entry.record.y, direction, index);
  }

  /** The topmost node under a graph point (later nodes are drawn on top). */
  nodeAt(p: FlowPoint): string | undefined {
    const nodes = this.#doc.nodes;
    for (let i = nodes.length - 1; i >= 0; i--) {
      const entry = this.#entry(nodes[i]!.id)!;
      if (rectContainsPoint(entry.rect, p)) return entry.record.id;
    }
    return undefined;
  }

  /** The pin whose anchor is nearest to a graph point, within PIN_HIT_RADIUS (or the pin's row on its node). */
  pinAt(p: FlowPoint): PinHit | undefined {
    let best: PinHit | undefined;
    let bestDistance = PIN_HIT_RADIUS * PIN_HIT_RADIUS;
    for (const node of this.#doc.nodes) {
      const entry = this.#entry(node.id)!;
      const r = entry.rect;
      if (p.x < r.x - PIN_HIT_RADIUS || p.x > r.x + r.width + PIN_HIT_RADIUS || p.y < r.y || p.y > r.y + r.height) continue;
      if (entry.pins === undefined) continue;
      for (const direction of ['input', 'output'] as const) {
        const side = direction === 'input' ? entry.pins.inputs : entry.pins.outputs;
        for (let i = 0; i < side.length; i++) {
          const a = pinAnchor(r.x, r.y, direction, i);
          const dx = p.x - a.x;
          const dy = p.y - a.y;
          const d = dx * dx + dy * dy;
          if (d <= bestDistance) {
            bestDistance = d;
            best = { pin: side[i]!, direction, anchor: a };
          }
        }
      }
    }
    return best;
  }

  /** Ids of nodes whose boxes intersect a graph rectangle, in document order. */
  nodesInRect(rect: FlowRect): string[] {
    const out: string[] = [];
    for (const node of this.#doc.nodes) if (rectsIntersect(this.#entry(node.id)!.rect, rect)) out.push(node.id);
    return out;
  }

  /** The rectangle around every node, comment and group; undefined for an empty graph. */
  bounds(): FlowRect | undefined {
    const rects: FlowRect[] = [];
    for (const node of this.#doc.nodes) rects.push(this.#entry(node.id)!.rect);
    for (const c of this.#doc.comments) rects.push(c);
    for (const g of this.#doc.groups) rects.push(g);
    return unionRect(rects);
  }

  /** Drops cached boxes of nodes that are gone (after a change that removed some). */
  prune(): void {
    for (const id of this.#entries.keys()) if (this.#doc.node(id) === undefined) this.#entries.delete(id);
  }
}

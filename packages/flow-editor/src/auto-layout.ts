// Positions for nodes the source does not place: columns by how many links lead to a node
// (longest path from the graph's sources), rows in source order, below any placed nodes.
import type { LinkRecord, NodeRecord } from './records.ts';

export const COLUMN_WIDTH = 280;
export const ROW_HEIGHT = 140;
const MAX_DEPTH = 64;

/** The records with positions filled in for those that are not placed; placed ones are returned as they are. */
export function layoutUnplaced(nodes: readonly NodeRecord[], links: readonly LinkRecord[]): NodeRecord[] {
  if (nodes.every((n) => n.placed)) return nodes.slice();
  const index = new Map<string, number>();
  nodes.forEach((n, i) => index.set(n.id, i));
  const from = new Int32Array(links.length);
  const to = new Int32Array(links.length);
  let edges = 0;
  for (const link of links) {
    const a = index.get(link.from.node);
    const b = index.get(link.to.node);
    if (a === undefined || b === undefined || a === b) continue;
    from[edges] = a;
    to[edges] = b;
    edges++;
  }
  // Bounded relaxation: a cycle stops growing at MAX_DEPTH instead of looping.
  const depth = new Int32Array(nodes.length);
  for (let pass = 0; pass < MAX_DEPTH; pass++) {
    let changed = false;
    for (let e = 0; e < edges; e++) {
      const next = Math.min(depth[from[e]!]! + 1, MAX_DEPTH);
      if (next > depth[to[e]!]!) {
        depth[to[e]!] = next;
        changed = true;
      }
    }
    if (!changed) break;
  }
  let top = 0;
  let left = 0;
  let anyPlaced = false;
  let bottom = -Infinity;
  let leftmost = Infinity;
  for (const n of nodes) {
    if (!n.placed) continue;
    anyPlaced = true;
    bottom = Math.max(bottom, n.y);
    leftmost = Math.min(leftmost, n.x);
  }
  if (anyPlaced) {
    top = bottom + ROW_HEIGHT * 2;
    left = leftmost;
  }
  const rows = new Map<number, number>();
  return nodes.map((node, i) => {
    if (node.placed) return node;
    const column = depth[i]!;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    return { ...node, x: left + column * COLUMN_WIDTH, y: top + row * ROW_HEIGHT };
  });
}

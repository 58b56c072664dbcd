// The memory overview, as BitSquid's memory tracker showed it: the engine's allocator tree
// (the `memory` messages, about two a second), one indented row per allocator with bytes in
// use / capacity, peak, a bar of use against capacity and the fragmentation of its free space.
// The engine is another program: every field is checked before it is shown.

/** One allocator of the tree, as the page shows it. */
export interface MemoryRow {
  name: string;
  kind: string;
  bytes: number;
  capacity: number | null;
  peak: number;
  count: number;
  fragmentation: number | null;
  depth: number;
}

/** Most rows shown: a tree bigger than this (a misbehaving engine) is cut, and says so. */
const MAX_ROWS = 200;
const MAX_DEPTH = 16;

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The rows of a `memory` message's tree, depth first; malformed nodes are skipped. */
export function memoryRows(tree: unknown): { rows: MemoryRow[]; cut: boolean } {
  const rows: MemoryRow[] = [];
  let cut = false;
  const walk = (node: unknown, depth: number): void => {
    if (rows.length >= MAX_ROWS || depth > MAX_DEPTH) {
      cut = true;
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const n = node as Record<string, unknown>;
    if (typeof n.name !== 'string' || !isCount(n.bytes)) return;
    rows.push({
      name: n.name.slice(0, 80),
      kind: typeof n.kind === 'string' ? n.kind.slice(0, 40) : '',
      bytes: n.bytes,
      capacity: isCount(n.capacity) ? n.capacity : null,
      peak: isCount(n.peak) ? n.peak : n.bytes,
      count: isCount(n.count) ? n.count : 0,
      fragmentation: isCount(n.fragmentation) ? Math.min(1, n.fragmentation) : null,
      depth,
    });
    if (Array.isArray(n.children)) for (const child of n.children) walk(child, depth + 1);
  };
  walk(tree, 0);
  return { rows, cut };
}

/** 1536 -> '1.5 KiB' (as @cuttle/allocators' formatBytes; the page does not import engine code). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]!}`;
}

export class MemoryPanel {
  readonly #table: HTMLTableSectionElement;
  readonly #caption: HTMLElement;
  /** The last tree's sequence number (the e2e test watches it move). */
  seq = 0;
  rows: MemoryRow[] = [];

  constructor(root: HTMLElement) {
    const heading = document.createElement('h2');
    heading.textContent = 'Memory';
    this.#caption = document.createElement('span');
    this.#caption.className = 'memory-caption';
    this.#caption.textContent = 'waiting for the engine…';
    heading.append(' ', this.#caption);
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const title of ['allocator', 'in use / capacity', 'peak', '', 'allocs', 'frag.']) {
      const th = document.createElement('th');
      th.textContent = title;
      head.append(th);
    }
    this.#table = table.createTBody();
    root.append(heading, table);
  }

  /** Shows a `memory` message's tree; returns false when the message is not one. */
  update(message: Record<string, unknown>): boolean {
    if (message.type !== 'memory') return false;
    const { rows, cut } = memoryRows(message.tree);
    this.rows = rows;
    this.seq = isCount(message.seq) ? message.seq : this.seq + 1;
    this.#table.replaceChildren(...rows.map((row) => this.#row(row)));
    this.#caption.textContent = `#${this.seq} at ${new Date().toLocaleTimeString()}${cut ? ` · first ${MAX_ROWS} allocators shown` : ''}`;
    this.#table.dataset.seq = String(this.seq);
    return true;
  }

  #row(row: MemoryRow): HTMLTableRowElement {
    const tr = document.createElement('tr');
    tr.dataset.name = row.name;
    tr.dataset.bytes = String(row.bytes);
    tr.title = row.kind;
    const cell = (text: string, className?: string): HTMLTableCellElement => {
      const td = document.createElement('td');
      td.textContent = text;
      if (className) td.className = className;
      tr.append(td);
      return td;
    };
    // Indentation by a class per depth: the page's CSP refuses inline styles.
    cell(row.name, `memory-name depth-${Math.min(row.depth, 6)}`);
    cell(row.capacity === null ? formatBytes(row.bytes) : `${formatBytes(row.bytes)} / ${formatBytes(row.capacity)}`);
    cell(formatBytes(row.peak));
    const bar = document.createElement('meter');
    bar.min = 0;
    bar.max = row.capacity ?? Math.max(row.peak, 1);
    bar.value = row.bytes;
    cell('').append(bar);
    cell(String(row.count));
    cell(row.fragmentation === null ? '–' : `${(row.fragmentation * 100).toFixed(1)} %`);
    return tr;
  }
}

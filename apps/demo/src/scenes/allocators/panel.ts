// The scene's side panel: the comparison toggle, the storm's knobs, both allocators' figures
// side by side, and the memory overview tree (memoryReport / formatMemoryReport).
import { checkbox, control, slider } from '../../controls.ts';

export const READOUT_ROWS = ['live blocks', 'used', 'free blocks', 'largest free', 'fragmentation', 'failed allocs', 'storm step'] as const;
export type ReadoutRow = (typeof READOUT_ROWS)[number];

export interface AllocatorPanel {
  /** Checked: the picture shows @thi.ng/malloc's MemPool instead of ours. */
  peer: HTMLInputElement;
  births: HTMLInputElement;
  stepsPerFrame: HTMLInputElement;
  /** Per row: the cell for ours and the cell for the peer. */
  cells: Record<ReadoutRow, [HTMLTableCellElement, HTMLTableCellElement]>;
  report: HTMLPreElement;
  peerReport: HTMLPreElement;
}

export function buildPanel(panel: HTMLElement, capacityText: string): AllocatorPanel {
  const intro = document.createElement('p');
  intro.textContent =
    `A seeded allocation storm (many small, some medium, few large blocks, varied lifetimes) replayed step by step ` +
    `against a ${capacityText} TLSF HeapAllocator (requests ≤ 64 B go to a PoolAllocator inside it) and, request for ` +
    `request, against @thi.ng/malloc's MemPool of the same size.`;
  const peer = control(panel, 'compare: show @thi.ng/malloc MemPool', checkbox(false));
  peer.name = 'peer';
  const births = control(panel, 'storm: births per step', slider(1, 16, 1, 5));
  births.name = 'births';
  const stepsPerFrame = control(panel, 'storm steps per frame', slider(1, 20, 1, 4));
  stepsPerFrame.name = 'steps';
  panel.prepend(intro);

  const table = document.createElement('table');
  table.id = 'allocators-compare';
  table.style.cssText = 'width: 100%; border-collapse: collapse; font: 11px ui-monospace, monospace; margin: 0.5rem 0;';
  const head = table.createTHead().insertRow();
  for (const title of ['', 'TLSF', 'MemPool']) {
    const th = document.createElement('th');
    th.textContent = title;
    th.style.textAlign = title === '' ? 'left' : 'right';
    head.append(th);
  }
  const body = table.createTBody();
  const cells = {} as Record<ReadoutRow, [HTMLTableCellElement, HTMLTableCellElement]>;
  for (const row of READOUT_ROWS) {
    const tr = body.insertRow();
    tr.insertCell().textContent = row;
    const ours = tr.insertCell();
    const theirs = tr.insertCell();
    ours.style.cssText = theirs.style.cssText = 'text-align: right; white-space: nowrap; padding-left: 0.4em;';
    ours.dataset.row = theirs.dataset.row = row;
    cells[row] = [ours, theirs];
  }

  const details = document.createElement('details');
  details.open = true;
  const summary = document.createElement('summary');
  summary.textContent = 'memory report (ours)';
  const report = document.createElement('pre');
  report.id = 'allocators-report';
  // The panel is narrow: long report lines wrap rather than hide behind a scroll bar.
  report.style.cssText = 'font-size: 10px; white-space: pre-wrap; margin: 0.25rem 0;';
  details.append(summary, report);
  const peerDetails = document.createElement('details');
  const peerSummary = document.createElement('summary');
  peerSummary.textContent = 'MemPool stats()';
  const peerReport = document.createElement('pre');
  peerReport.style.cssText = report.style.cssText;
  peerDetails.append(peerSummary, peerReport);
  panel.append(table, details, peerDetails);
  return { peer, births, stepsPerFrame, cells, report, peerReport };
}

/**
 * formatMemoryReport's tree, each line split after the allocator's name so it fits the narrow
 * panel: the figures go on a second line under the name, behind the tree's own vertical bar.
 */
export function narrowReport(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const prefix = /^[│├└─ ]*/u.exec(line)?.[0] ?? '';
      const split = line.indexOf('  ', prefix.length);
      if (split < 0) return line;
      const under = prefix.replaceAll('├─ ', '│  ').replaceAll('└─ ', '   ');
      return `${line.slice(0, split)}\n${under} ${line.slice(split).trim().replace(/ {2,}/gu, ' ')}`;
    })
    .join('\n');
}

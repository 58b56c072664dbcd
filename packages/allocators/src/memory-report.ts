import type { MemoryReport } from './api.ts';
import type { Allocator } from './allocator.ts';

/** The tree of named allocators from `root` down, with bytes and counts (JSON-ready). */
export function memoryReport(root: Allocator): MemoryReport {
  return root.report();
}

/** Human-readable bytes in powers of 1024: `formatBytes(1536)` is `'1.5 KiB'`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]!}`;
}

/**
 * The memory overview as an indented text tree, one allocator a line:
 * `name (Kind)  used / capacity  in N allocations`.
 */
export function formatMemoryReport(report: MemoryReport): string {
  const lines: string[] = [];
  const walk = (node: MemoryReport, prefix: string, childPrefix: string): void => {
    const capacity = node.capacityBytes === null ? '' : ` / ${formatBytes(node.capacityBytes)}`;
    lines.push(`${prefix}${node.name} (${node.kind})  ${formatBytes(node.allocatedBytes)}${capacity}  in ${node.allocationCount} allocation(s)`);
    node.children.forEach((child, i) => {
      const last = i === node.children.length - 1;
      walk(child, `${childPrefix}${last ? '└─ ' : '├─ '}`, `${childPrefix}${last ? '   ' : '│  '}`);
    });
  };
  walk(report, '', '');
  return lines.join('\n');
}

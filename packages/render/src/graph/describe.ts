// A compiled frame graph as text: the passes in order with what they read and write, the
// passes culled and why, every resource with its lifetime and the GPU object it lives in, and
// the transient memory with and without sharing.
import type { CompiledGraph } from './compile.ts';
import type { ResourceDesc } from './resources.ts';

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

function describeDesc(desc: ResourceDesc): string {
  if (desc.kind === 'buffer') return `buffer ${desc.size} B`;
  const layers = (desc.layers ?? 1) > 1 ? `x${desc.layers}` : '';
  const mips = (desc.mipLevelCount ?? 1) > 1 ? `, ${desc.mipLevelCount} mips` : '';
  return `${desc.width}x${desc.height}${layers} ${desc.format}${mips}`;
}

export function describeGraph(graph: CompiledGraph, external: ReadonlySet<string> = new Set()): string {
  const { order, culled, resources, objects, transientBytes } = graph;
  const transient = [...resources.values()].filter((info) => !info.imported && info.first >= 0);
  const lines = [
    `frame graph: ${order.length} passes run, ${culled.length} culled; ${transient.length} transient resources in ${objects.length} GPU objects: ${mib(transientBytes.shared)} (${mib(transientBytes.unshared)} without sharing)`,
    'passes:',
  ];
  const width = Math.max(4, ...order.map((pass) => pass.name.length));
  order.forEach((pass, i) => {
    const creates = Object.keys(pass.creates ?? {});
    const reads = (pass.reads ?? []).map((a) => a.resource);
    const writes = (pass.writes ?? []).map((a) => a.resource).filter((name) => !creates.includes(name));
    const parts = [creates.length ? `creates ${creates.join(', ')}` : '', reads.length ? `reads ${reads.join(', ')}` : '', writes.length ? `writes ${writes.join(', ')}` : ''].filter(Boolean);
    lines.push(`  ${String(i).padStart(2)} ${pass.name.padEnd(width)}  ${parts.join('; ')}${pass.point !== undefined ? `  [at ${pass.point}]` : ''}`);
  });
  for (const { pass, reason } of culled) lines.push(`   - ${pass.name.padEnd(width)}  culled: ${reason}`);
  lines.push('resources:');
  const nameWidth = Math.max(4, ...[...resources.keys()].map((name) => name.length));
  for (const info of resources.values()) {
    const life = info.first < 0 ? 'unused' : `passes ${info.first}..${info.last >= order.length ? 'end' : info.last}`;
    const where = info.imported ? 'imported' : info.object < 0 ? '' : `object ${info.object}${objects[info.object]!.resources.length > 1 ? ` (shared with ${objects[info.object]!.resources.filter((name) => name !== info.name).join(', ')})` : ''}`;
    lines.push(`  ${info.name.padEnd(nameWidth)}  ${(external.has(info.name) ? 'external' : describeDesc(info.desc)).padEnd(30)} ${life.padEnd(14)} ${where}`.trimEnd());
  }
  return lines.join('\n');
}

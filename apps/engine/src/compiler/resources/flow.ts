// flow: a Flow graph (JSON/SJSON) → the one-blob program of @cuttle/flow, checked against the
// engine's actions. Graph issues name a node; the error points at that node in the source.
import { compileFlowGraph, FlowGraphError } from '@cuttle/flow';
import type { FlowMeta } from '../../runtime/formats.ts';
import { createFlowRegistry } from '../../runtime/flow-actions.ts';
import { writeContainer } from '../../runtime/container.ts';
import type { CompileContext, PathKey } from '../context.ts';

const registry = createFlowRegistry();

export function compileFlow(ctx: CompileContext): Uint8Array {
  const doc = ctx.document();
  let blob: ArrayBuffer;
  try {
    blob = compileFlowGraph(doc, registry);
  } catch (error) {
    if (!(error instanceof FlowGraphError)) throw error;
    const issue = error.issues[0]!;
    const nodes = (doc as { nodes?: { id?: unknown }[] }).nodes;
    const index = Array.isArray(nodes) ? nodes.findIndex((n) => n.id === issue.node) : -1;
    const at: PathKey[] = index < 0 ? [] : ['nodes', index];
    const more = error.issues.length > 1 ? ` (${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''} after this one)` : '';
    return ctx.fail(at, `${issue.code}: ${issue.message}${more}`, issue.code === 'unknown-type' ? `Use a node type of @cuttle/flow or one of the engine's actions (${registry.types().filter((t) => t.name.startsWith('action/')).map((t) => t.name).join(', ')})` : 'Fix the graph there');
  }
  const kind = (doc as { kind?: unknown }).kind === 'unit' ? 'unit' : 'level';
  // Compiled, so every node has a string type, in source order (the blob's node indices).
  const nodes = (doc as { nodes: { type: string }[] }).nodes.map((n) => n.type);
  const meta: FlowMeta = { kind, nodes };
  return writeContainer({ type: 'flow', meta, sections: { blob: new Uint8Array(blob) } });
}

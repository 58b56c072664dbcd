// Live validation: the graph as it would be saved, through @cuttle/flow's own validator, its
// issues grouped by the node they name so a view can mark each node (and each pin: `socket`).
import { validateFlowGraph, type FlowIssue, type FlowRegistry } from '@cuttle/flow';
import type { JsonObject } from '@cuttle/tools-merge';
import type { FlowValidation } from './api.ts';

const NONE: readonly FlowIssue[] = Object.freeze([]);

/** Groups issues by node; issues naming no node of the document (or a missing one) are graph-level. */
export function groupIssues(validatorIssues: readonly FlowIssue[], notes: readonly FlowIssue[], hasNode: (id: string) => boolean): FlowValidation {
  const byNode = new Map<string, FlowIssue[]>();
  const graph: FlowIssue[] = [];
  const issues = [...validatorIssues, ...notes.filter((n) => n.node === '' || hasNode(n.node))];
  for (const issue of issues) {
    if (issue.node !== '' && hasNode(issue.node)) {
      let list = byNode.get(issue.node);
      if (list === undefined) byNode.set(issue.node, (list = []));
      list.push(issue);
    } else graph.push(issue);
  }
  return { issues, byNode, graph, ok: validatorIssues.length === 0 };
}

export function validateSource(value: JsonObject, registry: FlowRegistry, notes: readonly FlowIssue[], hasNode: (id: string) => boolean): FlowValidation {
  return groupIssues(validateFlowGraph(value, registry), notes, hasNode);
}

export function issuesIn(validation: FlowValidation, node: string): readonly FlowIssue[] {
  return validation.byNode.get(node) ?? NONE;
}

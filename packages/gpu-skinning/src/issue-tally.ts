import type { VertexFixKind, VertexIssue, VertexRefusalKind } from './api.ts';

/**
 * Counts the vertices with each kind of problem while a builder walks them in order, keeping the
 * first vertex of each: a vertex with two problems of one kind (two negative weights) counts once.
 */
export class IssueTally<K extends VertexFixKind | VertexRefusalKind> {
  readonly #issues = new Map<K, VertexIssue>();
  readonly #lastVertex = new Map<K, number>();

  add(kind: K, vertex: number, detail: string): void {
    const issue = this.#issues.get(kind);
    if (!issue) this.#issues.set(kind, { kind, vertices: 1, firstVertex: vertex, detail });
    else if (this.#lastVertex.get(kind) !== vertex) issue.vertices++;
    this.#lastVertex.set(kind, vertex);
  }

  get size(): number {
    return this.#issues.size;
  }

  list(): VertexIssue[] {
    return [...this.#issues.values()];
  }
}

/** One line per issue: "3 vertices (first 17): negative weight -0.5 on joint 2". */
export function describeIssues(issues: readonly VertexIssue[]): string {
  return issues.map((issue) => `${issue.kind}: ${issue.vertices} ${issue.vertices === 1 ? 'vertex' : 'vertices'} (first ${issue.firstVertex}): ${issue.detail}`).join('\n');
}

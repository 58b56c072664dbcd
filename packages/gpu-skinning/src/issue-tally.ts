import type { VertexFixKind, VertexIssue, VertexRefusalKind } from './api.ts';

/** Counts problems by kind while a builder walks the vertices, keeping the first vertex of each. */
export class IssueTally<K extends VertexFixKind | VertexRefusalKind> {
  readonly #issues = new Map<K, VertexIssue>();

  add(kind: K, vertex: number, detail: string): void {
    const issue = this.#issues.get(kind);
    if (issue) issue.vertices++;
    else this.#issues.set(kind, { kind, vertices: 1, firstVertex: vertex, detail });
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
  return issues.map((issue) => `${issue.kind}: ${issue.vertices} vertex${issue.vertices === 1 ? '' : 'es'} (first ${issue.firstVertex}): ${issue.detail}`).join('\n');
}

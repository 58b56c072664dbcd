// The budget check: each package's figures against its budget in budgets.ts. Pure, so the test
// feeds it figures without packing or bundling anything.

export const BUDGETS_FILE = 'tooling/scripts/src/size/budgets.ts';

export interface SizeBudget {
  /** The tarball `pnpm pack` makes. */
  packedBytes: number;
  /** The README example's imports, bundled, tree-shaken, minified and gzipped. */
  exampleGzipBytes?: number;
}

export interface SizeFigures {
  name: string;
  packedBytes: number;
  exampleGzipBytes?: number;
}

const bytes = (n: number): string => `${n.toLocaleString('en-US')} B`;
/** A budget as budgets.ts writes it (`52_600`), to paste. */
const literal = (n: number): string => n.toLocaleString('en-US').replace(/,/g, '_');

/** A new budget for `figure`: 10% headroom, rounded up to three significant digits. */
export function suggestBudget(figure: number): number {
  const target = figure * 1.1;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(target)) - 2);
  return Math.ceil(target / step) * step;
}

/** One message per problem; empty when every figure is within its budget. */
export function checkBudgets(figures: SizeFigures[], budgets: Readonly<Record<string, SizeBudget>>): string[] {
  const failures: string[] = [];
  for (const f of figures) {
    const budget = budgets[f.name];
    if (budget === undefined) {
      const example = f.exampleGzipBytes === undefined ? '' : `, exampleGzipBytes: ${literal(suggestBudget(f.exampleGzipBytes))}`;
      failures.push(`${f.name} has no size budget: add \`'${f.name}': { packedBytes: ${literal(suggestBudget(f.packedBytes))}${example} }\` to ${BUDGETS_FILE}`);
      continue;
    }
    const over = (what: string, figure: number, limit: number): void => {
      failures.push(`${f.name}: ${what} is ${bytes(figure)}, over its budget of ${bytes(limit)} in ${BUDGETS_FILE}. Shrink it, or raise the budget there (to ${literal(suggestBudget(figure))} for 10% headroom) with a comment saying why.`);
    };
    if (f.packedBytes > budget.packedBytes) over('the packed tarball', f.packedBytes, budget.packedBytes);
    if (f.exampleGzipBytes !== undefined) {
      if (budget.exampleGzipBytes === undefined) failures.push(`${f.name}: the README example is ${bytes(f.exampleGzipBytes)} min+gz and has no budget: add exampleGzipBytes: ${literal(suggestBudget(f.exampleGzipBytes))} to it in ${BUDGETS_FILE}`);
      else if (f.exampleGzipBytes > budget.exampleGzipBytes) over('the README example min+gz', f.exampleGzipBytes, budget.exampleGzipBytes);
    }
  }
  const measured = new Set(figures.map((f) => f.name));
  for (const name of Object.keys(budgets)) {
    if (!measured.has(name)) failures.push(`${BUDGETS_FILE} has a budget for ${name}, which is not a publishable package: remove it`);
  }
  return failures;
}

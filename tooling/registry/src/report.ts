// The registry test's checks: each printed as it happens, then a table per step at the end.
export type Outcome = boolean | 'skipped';

export interface Check {
  step: string;
  what: string;
  ok: Outcome;
  detail?: string;
}

export class Report {
  readonly checks: Check[] = [];
  private readonly seconds = new Map<string, number>();

  add(step: string, what: string, ok: Outcome, detail?: string): void {
    this.checks.push({ step, what, ok, ...(detail === undefined || detail === '' ? {} : { detail }) });
    const mark = ok === 'skipped' ? 'skip' : ok ? 'ok  ' : 'FAIL';
    const more = detail !== undefined && detail !== '' && ok !== true ? `\n${detail.replace(/^/gm, '     ')}` : '';
    console.log(`${mark} ${step}: ${what}${more}`);
  }

  /** Records a list of problems as one check: it passes when the list is empty. */
  expectNone(step: string, what: string, problems: string[]): boolean {
    this.add(step, what, problems.length === 0, problems.join('\n'));
    return problems.length === 0;
  }

  time(step: string, seconds: number): void {
    this.seconds.set(step, (this.seconds.get(step) ?? 0) + seconds);
  }

  count(ok: Outcome): number {
    return this.checks.filter((c) => c.ok === ok).length;
  }

  /** One row per step: passed, failed, skipped, seconds; then the failed checks. */
  table(): string {
    const steps = [...new Set([...this.checks.map((c) => c.step), ...this.seconds.keys()])];
    const rows = [['step', 'passed', 'failed', 'skipped', 'seconds']];
    for (const step of steps) {
      const mine = this.checks.filter((c) => c.step === step);
      rows.push([step, String(mine.filter((c) => c.ok === true).length), String(mine.filter((c) => c.ok === false).length), String(mine.filter((c) => c.ok === 'skipped').length), (this.seconds.get(step) ?? 0).toFixed(1)]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    const lines = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
    const failed = this.checks.filter((c) => c.ok === false).map((c) => `  FAILED ${c.step}: ${c.what}`);
    return [...lines, ...failed].join('\n');
  }
}

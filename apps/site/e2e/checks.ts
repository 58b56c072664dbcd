// Named pass/fail checks, printed as they come, and the JSON report in the shape of
// .test-results/browser.json.
import { mkdirSync, writeFileSync } from 'node:fs';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export class Checks {
  readonly list: Check[] = [];

  check(name: string, ok: boolean, detail: string): void {
    this.list.push({ name, ok, detail });
    console.log(`${ok ? '✓' : '✗'} ${name}: ${detail}`);
  }

  get failed(): number {
    return this.list.filter((check) => !check.ok).length;
  }

  /** Writes `.test-results/<file>` at the repository root and returns the process exit code. */
  report(label: string, file: string): number {
    const passed = this.list.length - this.failed;
    console.log(`${label}: ${passed} passed, ${this.failed} failed`);
    const dir = new URL('../../../.test-results/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL(file, dir), JSON.stringify({ numPassedTests: passed, numFailedTests: this.failed, numPendingTests: 0, checks: this.list }, null, 2));
    return this.failed === 0 ? 0 : 1;
  }
}

#!/usr/bin/env node
// Prints one closing line for the whole test run, from vitest's JSON report, the browser
// smoke test's report and the packed-install test's report: "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of ['.test-results/vitest.json', '.test-results/browser.json', '.test-results/packed.json']) {
  if (!existsSync(file)) {
    console.error(`test-summary: ${file} is missing: did that step run?`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests ?? 0;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);

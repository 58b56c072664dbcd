#!/usr/bin/env node
// Prints the 15 slowest tests of the run (from vitest's JSON report: a test near the 60 s a
// test may take on the 2-core machine shows here first), then one closing line for the whole
// run, from vitest's JSON report, the browser smoke test's and the site test's reports, the
// packed-install test's and the registry publish test's reports: "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const SLOWEST = 15;
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of ['.test-results/vitest.json', '.test-results/browser.json', '.test-results/site.json', '.test-results/packed.json', '.test-results/registry.json']) {
  if (!existsSync(file)) {
    console.error(`test-summary: ${file} is missing: did that step run?`);
    failed++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests ?? 0;
  if (file.endsWith('vitest.json')) printSlowest(report);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);

function printSlowest(report) {
  const tests = [];
  for (const testFile of report.testResults ?? []) {
    for (const test of testFile.assertionResults ?? []) {
      tests.push({ ms: test.duration ?? 0, file: relative(process.cwd(), testFile.name), title: test.fullName ?? test.title });
    }
  }
  tests.sort((a, b) => b.ms - a.ms);
  console.log(`the ${SLOWEST} slowest tests of ${tests.length}:`);
  for (const { ms, file, title } of tests.slice(0, SLOWEST)) {
    const name = title.length > 90 ? `${title.slice(0, 89)}…` : title;
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}: ${name}`);
  }
}

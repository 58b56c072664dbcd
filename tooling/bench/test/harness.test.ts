import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BenchDefinitionError, defineSuite, formatMarkdownTable, median, opsPerSecond, ratio, runSuite, writeBenchmarksMd, type BenchReport } from '../src/index.ts';
import { mergeReports, parseFlags } from '../src/main.ts';

describe('measure', () => {
  test('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  test('opsPerSecond scales by opsPerCall and is positive', () => {
    const single = opsPerSecond(() => 1, { minMs: 5 });
    expect(single).toBeGreaterThan(0);
    expect(opsPerSecond(() => 1, { minMs: 5, opsPerCall: 1000 })).toBeGreaterThan(single);
  });
});

describe('runSuite', () => {
  test('produces the JSON contract with medians of interleaved rounds', async () => {
    let oursCalls = 0;
    const peerValues = [10, 30, 20];
    const suite = defineSuite({
      package: '@cuttle/example',
      rounds: 3,
      cases: [{ name: 'case a', unit: 'ops/s', higherIsBetter: true, ours: () => ++oursCalls * 100, peers: { peer: () => peerValues.shift()! } }],
      notes: 'how it was measured',
    });
    const report = await runSuite(suite);
    expect(report).toMatchObject({ package: '@cuttle/example', suite: 'cpu', gpu: null, notes: 'how it was measured' });
    expect(report.node).toBe(process.version);
    expect(report.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(report.cases).toEqual([{ case: 'case a', unit: 'ops/s', higherIsBetter: true, ours: 200, peers: { peer: 20 } }]);
  });

  test('only runs the cases whose name contains the text', async () => {
    const ran: string[] = [];
    const suite = defineSuite({
      package: '@cuttle/example',
      rounds: 1,
      cases: ['sort 2^20', 'scan', 'sort 2^24'].map((name) => ({ name, unit: 'ops/s', higherIsBetter: true, ours: () => { ran.push(name); return 1; }, peers: {} })),
    });
    const report = await runSuite(suite, { only: 'sort' });
    expect(report.cases.map((c) => c.case)).toEqual(['sort 2^20', 'sort 2^24']);
    expect(ran).toEqual(['sort 2^20', 'sort 2^24']);
    expect(report.partial).toBe('--only "sort": 2 of 3 cases');
  });

  test('after every case the report so far is handed out, partial until the run is whole', async () => {
    const suite = defineSuite({
      package: '@cuttle/example',
      rounds: 1,
      cases: ['a', 'b', 'c'].map((name) => ({ name, unit: 'ops/s', higherIsBetter: true, ours: () => 1, peers: {} })),
    });
    const seen: BenchReport[] = [];
    const report = await runSuite(suite, { onCase: (sofar) => { seen.push(sofar); } });
    expect(seen.map((r) => [r.cases.length, r.partial])).toEqual([[1, 'stopped after 1 of 3 cases'], [2, 'stopped after 2 of 3 cases'], [3, undefined]]);
    expect(report.partial).toBeUndefined();
  });

  test('a partial report never rewrites BENCHMARKS.md', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cuttle-partial-')), 'BENCHMARKS.md');
    writeFileSync(path, '# kept\n');
    const partial: BenchReport = { package: '@cuttle/example', suite: 'gpu', node: 'v20', cpu: 'x', gpu: 'y', date: '2026-11-23', cases: [], partial: 'stopped after 4 of 9 cases' };
    expect(() => { writeBenchmarksMd(path, partial); }).toThrow(/partial \(stopped after 4 of 9 cases\).*by hand/);
    expect(readFileSync(path, 'utf8')).toBe('# kept\n');
  });

  test('setup runs before cases are built and teardown runs even when a case throws', async () => {
    const events: string[] = [];
    const suite = defineSuite({
      package: '@cuttle/example',
      rounds: 1,
      setup: () => { events.push('setup'); },
      teardown: () => { events.push('teardown'); },
      cases: () => {
        events.push('cases');
        return [{ name: 'boom', unit: 'ms', higherIsBetter: false, ours: () => { throw new Error('boom'); }, peers: {} }];
      },
    });
    await expect(runSuite(suite)).rejects.toThrow('boom');
    expect(events).toEqual(['setup', 'cases', 'teardown']);
  });

  test('bad definitions are refused', () => {
    expect(() => defineSuite({ package: 'lodash', cases: [] })).toThrow(BenchDefinitionError);
    expect(() => defineSuite({ package: '@cuttle/x', rounds: 0, cases: [] })).toThrow(/rounds/);
  });
});

const report: BenchReport = {
  package: '@cuttle/example',
  suite: 'cpu',
  node: 'v20.0.0',
  cpu: 'Test CPU x 2 cores',
  gpu: null,
  date: '2026-11-22',
  cases: [
    { case: 'throughput', unit: 'ops/s', higherIsBetter: true, ours: 300, peers: { lib: 100 } },
    { case: 'latency', unit: 'ms', higherIsBetter: false, ours: 2, peers: { lib: 8 } },
  ],
};

describe('tables', () => {
  test('ratio is above 1 when ours is better, in both directions', () => {
    expect(ratio(report.cases[0]!, 100)).toBe(3);
    expect(ratio(report.cases[1]!, 8)).toBe(4);
  });

  test('markdown table lists case, ours, peer and ratio', () => {
    const table = formatMarkdownTable(report);
    expect(table).toContain('| case | unit | ours | lib | ours/lib |');
    expect(table).toContain('| throughput | ops/s ↑ | 300 | 100 | 3.00x |');
    expect(table).toContain('| latency | ms ↓ | 2.00 | 8.00 | 4.00x |');
  });

  test('BENCHMARKS.md keeps other sections and replaces its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cuttle-bench-'));
    const path = join(dir, 'BENCHMARKS.md');
    writeFileSync(path, '# title\n\nintro kept\n');
    writeBenchmarksMd(path, report);
    writeBenchmarksMd(path, { ...report, suite: 'gpu', gpu: 'Test GPU' });
    writeBenchmarksMd(path, { ...report, cases: [{ ...report.cases[0]!, ours: 600 }] });
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('intro kept');
    expect(text.match(/bench:cpu:start/g)).toHaveLength(1);
    expect(text).toContain('| throughput | ops/s ↑ | 600 | 100 | 6.00x |');
    expect(text).toContain('GPU: Test GPU');
  });
});

describe('cli helpers', () => {
  test('flags parse, and a bad --rounds is refused', () => {
    expect(parseFlags(['--json', '--rounds', '3'])).toEqual({ json: true, write: false, rounds: 3, only: undefined });
    expect(parseFlags(['--only', 'sort'])).toMatchObject({ only: 'sort' });
    expect(() => parseFlags(['--rounds', 'many'])).toThrow(/--rounds/);
    expect(() => parseFlags(['--only'])).toThrow(/--only/);
  });

  test('reports of one package and suite merge into one document', () => {
    const merged = mergeReports([report, { ...report, cases: [{ ...report.cases[0]!, case: 'third' }] }]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.cases.map((c) => c.case)).toEqual(['throughput', 'latency', 'third']);
  });
});

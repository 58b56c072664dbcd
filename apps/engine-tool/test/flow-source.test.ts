// The Flow sources the page may read and save: `.flow` files inside the project only, bounded.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FlowSourceError, flowSourceUnchanged, MAX_FLOW_SOURCE_BYTES, readFlowSource, writeFlowSource } from '../src/host/flow-source.ts';

const dir = mkdtempSync(join(tmpdir(), 'cuttle-flow-source-'));
const project = join(dir, 'project');
mkdirSync(join(project, 'flow'), { recursive: true });
writeFileSync(join(project, 'flow', 'lamp.flow'), 'flow = 1\n');
writeFileSync(join(project, 'flow', 'notes.txt'), 'not a graph');
writeFileSync(join(dir, 'outside.flow'), 'flow = 1\n');
symlinkSync(join(dir, 'outside.flow'), join(project, 'flow', 'escape.flow'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

describe('Flow sources for the page', () => {
  it('reads and writes a graph of the project', () => {
    expect(readFlowSource(project, 'flow/lamp.flow')).toBe('flow = 1\n');
    expect(flowSourceUnchanged(project, 'flow/lamp.flow', 'flow = 1\n')).toBe(true);
    writeFlowSource(project, 'flow/lamp.flow', 'flow = 1\nkind = "unit"\n');
    expect(readFileSync(join(project, 'flow', 'lamp.flow'), 'utf8')).toBe('flow = 1\nkind = "unit"\n');
  });

  it.each([
    ['../outside.flow'],
    ['flow/../../outside.flow'],
    ['/etc/passwd'],
    [join(dir, 'outside.flow')],
    ['flow/notes.txt'],
    ['flow/missing.flow'],
    ['flow\\lamp.flow'],
    [''],
    ['a'.repeat(300) + '.flow'],
    [42],
    [null],
  ])('refuses the path %j', (path) => {
    expect(() => readFlowSource(project, path)).toThrow(FlowSourceError);
    expect(() => { writeFlowSource(project, path, 'flow = 1\n'); }).toThrow(FlowSourceError);
  });

  it('refuses a link that leads outside the project', () => {
    expect(() => readFlowSource(project, 'flow/escape.flow')).toThrow(/outside the project/);
    expect(() => { writeFlowSource(project, 'flow/escape.flow', 'x'); }).toThrow(FlowSourceError);
    expect(readFileSync(join(dir, 'outside.flow'), 'utf8')).toBe('flow = 1\n');
  });

  it('refuses text that is not a string or is too large', () => {
    expect(() => { writeFlowSource(project, 'flow/lamp.flow', { text: 1 }); }).toThrow(FlowSourceError);
    expect(() => { writeFlowSource(project, 'flow/lamp.flow', 'x'.repeat(MAX_FLOW_SOURCE_BYTES + 1)); }).toThrow(/larger/);
  });
});

// Font sources read only inside the project, or inside a folder named with --font-dir (the
// fontDirs option): an absolute path elsewhere, an absolute .fnt's page that climbs out of its
// folder, a project .fnt's page that climbs out of the project, and a symbolic link out of a
// font folder are refused without being opened, and no error echoes a file's bytes.
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { encodePng } from '@cuttle/gui';
import { compileProject, type CompileOptions, type CompileReport } from '../src/compiler/compile-project.ts';
import { watchProject } from '../src/compiler/watch.ts';
import type { CompileError } from '../src/errors.ts';
import { runCli, scratchProject, type Scratch } from './helpers.ts';

let project: Scratch;
let fontDir: string;
beforeEach(() => {
  project = scratchProject();
  fontDir = join(project.dir, 'system-fonts');
  mkdirSync(fontDir);
  writeFileSync(join(project.dir, 'secret.txt'), 'root:x:0:0:SECRET\n');
});
afterEach(() => {
  project.dispose();
});

/** A one-character AngelCode text .fnt whose only page is `page`. */
function tinyFnt(page: string): string {
  return [
    'info face="Tiny" size=8 bold=0 italic=0 charset="" unicode=1 stretchH=100 smooth=1 aa=1 padding=0,0,0,0 spacing=1,1',
    'common lineHeight=8 base=7 scaleW=16 scaleH=16 pages=1 packed=0',
    `page id=0 file="${page}"`,
    'chars count=1',
    'char id=65 x=0 y=0 width=8 height=8 xoffset=0 yoffset=0 xadvance=8 page=0 chnl=15',
  ].join('\n') + '\n';
}

const tinyPage = (): Promise<Uint8Array> => encodePng({ width: 16, height: 16, channels: 1, data: new Uint8Array(256).fill(200) });

/** Makes `fonts/tiny.font` read `source`, compiles, and returns its error (undefined: it compiled). */
async function compileTiny(source: string, options: CompileOptions = {}, extra = 'scale = 1\nspread = 1\n'): Promise<CompileError | undefined> {
  writeFileSync(join(project.source, 'fonts/tiny.font'), `source = ${JSON.stringify(source)}\n${extra}`);
  const report = await compileProject(project.source, project.out, options);
  expect(report.failed.filter((f) => f.path !== 'fonts/tiny.font')).toEqual([]);
  return report.failed.find((f) => f.path === 'fonts/tiny.font')?.error;
}

describe('font sources', () => {
  test('an absolute source outside every font folder is refused, and its bytes never show', async () => {
    const error = await compileTiny(join(project.dir, 'secret.txt'));
    expect(error).toMatchObject({ file: 'fonts/tiny.font', line: 1, column: 10 });
    expect(error!.problem).toContain('outside the project and every --font-dir');
    expect(error!.fix).toContain('--font-dir');
    expect(error!.message).not.toMatch(/root|SECRET/);
    // Named as a font folder, the file is read but is no font: still no bytes in the error.
    const named = await compileTiny(join(project.dir, 'secret.txt'), { fontDirs: [project.dir] });
    expect(named!.problem).toContain('is not a TrueType/OpenType font');
    expect(named!.message).not.toMatch(/root|SECRET/);
  });

  test('an absolute .fnt in a font folder reads its pages there, never outside it', async () => {
    writeFileSync(join(fontDir, 'page.png'), await tinyPage());
    writeFileSync(join(project.dir, 'outside.png'), await tinyPage());
    writeFileSync(join(fontDir, 'tiny.fnt'), tinyFnt('page.png'));
    expect(await compileTiny(join(fontDir, 'tiny.fnt'), { fontDirs: [fontDir] })).toBeUndefined();
    writeFileSync(join(fontDir, 'tiny.fnt'), tinyFnt('../outside.png'));
    const error = await compileTiny(join(fontDir, 'tiny.fnt'), { fontDirs: [fontDir] });
    expect(error!.problem).toBe(`reads ${join(project.dir, 'outside.png')}, which is outside the project and every --font-dir`);
  });

  test('a project .fnt\'s page that climbs out of the project is refused', async () => {
    writeFileSync(join(project.source, 'fonts/tiny.fnt'), tinyFnt('../../../../etc/passwd'));
    const error = await compileTiny('fonts/tiny.fnt');
    expect(error!.problem).toBe('reads ../../../etc/passwd, which is outside the project');
  });

  test('a symbolic link out of a font folder is refused', async () => {
    symlinkSync(join(project.dir, 'secret.txt'), join(fontDir, 'evil.ttf'));
    const error = await compileTiny(join(fontDir, 'evil.ttf'), { fontDirs: [fontDir] });
    expect(error!.problem).toContain('outside the project and every --font-dir');
    expect(error!.message).not.toMatch(/root|SECRET/);
  });

  test('the CLI reads a system font only from a folder named with --font-dir', async () => {
    copyFileSync(join(project.source, 'fonts/DejaVuSans.ttf'), join(fontDir, 'DejaVuSans.ttf'));
    writeFileSync(join(project.source, 'fonts/tiny.font'), `source = ${JSON.stringify(join(fontDir, 'DejaVuSans.ttf'))}\nchars = "AB"\n`);
    const refused = await runCli(['compile', project.source, project.out]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('error: fonts/tiny.font:1:10: reads');
    const allowed = await runCli(['compile', project.source, project.out, '--font-dir', fontDir]);
    expect([allowed.code, allowed.stdout]).toEqual([0, expect.stringContaining('failed 0') as unknown]);
  });

  test('incremental and --watch compiles read with the same rule', async () => {
    copyFileSync(join(project.source, 'fonts/DejaVuSans.ttf'), join(fontDir, 'DejaVuSans.ttf'));
    expect(await compileTiny(join(fontDir, 'DejaVuSans.ttf'), { fontDirs: [fontDir] }, 'chars = "AB"\n')).toBeUndefined();
    const output = readFileSync(join(project.out, 'fonts/tiny.font.cr'));
    // The font folder no longer named: the recorded input is not read, the font is rebuilt and refused.
    const report = await compileProject(project.source, project.out);
    expect(report.compiled).toEqual([]);
    expect(report.failed.map((f) => f.error.problem)).toEqual([expect.stringContaining('outside the project and every --font-dir') as unknown]);
    expect(readFileSync(join(project.out, 'fonts/tiny.font.cr')).equals(output)).toBe(true);
    // The watcher compiles with the folders it was given.
    const watched = await new Promise<CompileReport>((resolve, reject) => {
      const watcher = watchProject(project.source, project.out, {
        fontDirs: [fontDir],
        quietMs: 20,
        onCompiled: (r) => {
          watcher.close();
          resolve(r);
        },
        onError: reject,
      });
      setTimeout(() => { writeFileSync(join(project.source, 'fonts/tiny.font'), `source = ${JSON.stringify(join(fontDir, 'DejaVuSans.ttf'))}\nchars = "ABC"\n`); }, 100);
    });
    expect(watched.failed).toEqual([]);
    expect(watched.compiled).toEqual([{ path: 'fonts/tiny.font', reason: 'changed' }]);
  });
});

// End to end: compile the sample project, start the engine in slave mode, start the tool (which
// launches the compiler in watch mode), open the tool in Debian's headless Chromium, edit a
// property, and see the change in a streamed frame. Prints the edit-to-frame times measured by
// the page. Never downloads a browser: /usr/bin/chromium (or CUTTLE_CHROMIUM).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, runE2e } from './stack.ts';

/** Lines that differ between two texts, outside their common head and tail. */
function changedLines(a: string, b: string): number {
  const x = a.split('\n'), y = b.split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  return Math.max(x.length, y.length) - head - tail;
}

await runE2e('engine tool e2e', async ({ source, listening, toolUrl, browser }) => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(toolUrl);
  interface Tool { state: { frames: number; generation: number; latencies: { ms: number; compileMs: number }[]; lastError?: string; log: string[] }; edit(unit: string, property: string, value: unknown): Promise<void>; meanColor(): [number, number, number] }
  const frames = (): Promise<number> => page.evaluate(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.state.frames);
  await page.waitForFunction(() => ((window as unknown as { cuttleTool?: Tool }).cuttleTool?.state.frames ?? 0) >= 3, undefined, { timeout: 30_000 });
  check('the tool shows streamed frames', (await frames()) >= 3);
  const units = await page.locator('#units li').count();
  check('the tool lists the level\'s units', units === 282, `${units} units`);
  const before = await page.evaluate(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.meanColor());

  // The Memory panel: the engine's allocator tree, updating while the engine runs.
  const vertexRow = page.locator('#memory tr[data-name="gpu/vertices"]');
  await vertexRow.waitFor({ timeout: 15_000 });
  const vertexBytes = Number(await vertexRow.getAttribute('data-bytes'));
  const vertexText = (await vertexRow.innerText()).replace(/\s+/g, ' ');
  check('the Memory panel shows gpu/vertices with bytes in use', vertexBytes > 0 && / \d+(\.\d+)? (B|KiB|MiB) \/ 8\.00 MiB/.test(` ${vertexText}`), vertexText);
  const seqOf = async (): Promise<number> => Number(await page.locator('#memory tbody').getAttribute('data-seq'));
  const firstSeq = await seqOf();
  await page.waitForFunction((seq) => Number(document.querySelector('#memory tbody')?.getAttribute('data-seq')) >= seq + 2, firstSeq, { timeout: 15_000 });
  check('the Memory panel updates while the engine runs', (await seqOf()) >= firstSeq + 2, `tree #${firstSeq} then #${await seqOf()}`);

  // The edit: the floor takes the blue painted material.
  const levelPath = join(source, 'levels', 'courtyard.level');
  const textBefore = readFileSync(levelPath, 'utf8');
  await page.evaluate(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.edit('floor', 'material', 'materials/painted'));
  await page.waitForFunction(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.state.latencies.length >= 1, undefined, { timeout: 30_000 });
  const after = await page.evaluate(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.meanColor());
  const blueShift = after[2] - after[0] - (before[2] - before[0]);
  check('the edit shows in the first frame of the new generation (floor turns blue)', blueShift > 25, `blue - red went from ${(before[2] - before[0]).toFixed(1)} to ${(after[2] - after[0]).toFixed(1)}`);
  const textAfter = readFileSync(levelPath, 'utf8');
  const changed = changedLines(textBefore, textAfter);
  check('the SJSON source changed by one line, comments kept', changed === 1 && textAfter.startsWith('// The sample level'), `${changed} changed line(s)`);

  // More edits, to time edit-to-frame: move a crate up and down.
  for (let i = 0; i < 4; i++) {
    await page.evaluate((y) => (window as unknown as { cuttleTool: Tool }).cuttleTool.edit('crate_001', 'position', [-17.7, y, 2]), 0.5 + ((i + 1) % 2));
    await page.waitForFunction((n) => (window as unknown as { cuttleTool: Tool }).cuttleTool.state.latencies.length >= n, i + 2, { timeout: 30_000 });
  }
  const latencies = await page.evaluate(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.state.latencies);
  const sorted = latencies.map((l) => l.ms).sort((a, b) => a - b);
  const compileMs = latencies.map((l) => l.compileMs).sort((a, b) => a - b);
  check('every edit reached a frame', latencies.length === 5);
  // A chatty engine: 700 log lines (sent by a second connection from the page's origin) leave
  // the log view at its 500 lines.
  await page.evaluate(async ({ url, token }) => {
    const socket = new WebSocket(url, ['cuttle.v1', `token.${token}`]);
    await new Promise((resolve) => { socket.addEventListener('open', resolve); });
    for (let i = 0; i < 700; i++) socket.send(JSON.stringify({ type: 'message', level: 'info', system: 'e2e', message: `line ${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.close();
  }, { url: String(listening.url), token: String(listening.token) });
  await page.waitForFunction(() => (window as unknown as { cuttleTool: Tool }).cuttleTool.state.log.at(-1)?.endsWith('line 699') === true, undefined, { timeout: 30_000 });
  const logLines = await page.locator('#log div').count();
  check('the log view keeps its last 500 lines', logLines === 500, `${logLines} lines`);
  check('no page errors', errors.length === 0, errors.join('; '));
  console.log(JSON.stringify({ editToFrameMs: { median: sorted[2], min: sorted[0], max: sorted[4], all: sorted.map(Math.round) }, writeAndCompileMs: { median: compileMs[2] }, frameSize: [640, 384] }));
  // To look at the tool as a person would: CUTTLE_TOOL_SCREENSHOT=/tmp/tool.png
  if (process.env.CUTTLE_TOOL_SCREENSHOT) {
    await page.setViewportSize({ width: 1300, height: 820 });
    await page.locator('#units li', { hasText: 'crate_001' }).click();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: process.env.CUTTLE_TOOL_SCREENSHOT });
  }
});

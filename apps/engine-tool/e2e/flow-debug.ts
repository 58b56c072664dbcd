// End to end, the Flow view: compile a copy of the sample project, start the engine in slave
// mode and the tool, open the tool in Debian's headless Chromium, and with real pointer and key
// events: pick a lamp, add a timer and a counter from the palette, link them, try a wrong link
// (refused, nothing changes), save with Ctrl+S (the tool writes and compiles, the engine
// reloads the graph into the running lamps), see the counter glow and its count on hover, set a
// breakpoint on it, see the lamp pause while frames keep coming, step once, clear it and continue.
// Never downloads a browser: /usr/bin/chromium (or CUTTLE_CHROMIUM).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { FlowPanel } from '../src/page/flow-panel.ts';
import { check, runE2e } from './stack.ts';

interface Point { x: number; y: number }
interface ToolWindow { cuttleTool: { state: { frames: number }; flow: FlowPanel } }

/** The page's Flow panel, read in the page. */
function flow<T>(page: Page, read: (panel: FlowPanel) => T): Promise<T> {
  return page.evaluate<T>(`(${read.toString()})(window.cuttleTool.flow)`);
}

/** Client pixels of a pin's anchor, of a node's title bar, of a graph point. */
async function pinAt(page: Page, node: string, pin: string, direction: 'input' | 'output'): Promise<Point> {
  return page.evaluate(([n, p, d]) => {
    const view = (window as unknown as ToolWindow).cuttleTool.flow.view!;
    const a = view.layout.anchor({ node: n, pin: p }, d);
    if (a === undefined) throw new Error(`no pin ${n}.${p}`);
    const s = view.viewport.toScreen(a.x, a.y);
    const box = view.element.getBoundingClientRect();
    return { x: box.left + s.x, y: box.top + s.y };
  }, [node, pin, direction] as const);
}

async function drag(page: Page, from: Point, to: Point): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

await runE2e('engine tool Flow e2e', async ({ source, toolUrl, browser }) => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.goto(toolUrl);
  const frames = (): Promise<number> => page.evaluate(() => (window as unknown as ToolWindow).cuttleTool.state.frames);
  await page.waitForFunction(() => ((window as unknown as Partial<ToolWindow>).cuttleTool?.state.frames ?? 0) >= 3, undefined, { timeout: 30_000 });
  check('the tool shows streamed frames', (await frames()) >= 3);

  // Pick a lamp: the units list comes from flow.units; the graph from the tool's server.
  await page.waitForFunction(() => (window as unknown as ToolWindow).cuttleTool.flow.state.units.length > 0, undefined, { timeout: 10_000 });
  const units = await flow(page, (p) => p.state.units);
  check('the Flow view lists the units that run graphs', units.some((u) => u.unit === 'lamp_03' && u.graph === 'flow/lamp.flow') && units.some((u) => u.unit === null), `${units.length} units`);
  await page.selectOption('#flow-unit', JSON.stringify('lamp_03'));
  await page.waitForSelector('#flow-editor [data-node="once"]', { timeout: 10_000 });
  check('picking lamp_03 shows its graph', (await page.locator('#flow-editor .cfe-node').count()) === 2 && (await flow(page, (p) => p.state.graph)) === 'flow/lamp.flow');
  // A known camera on the graph, so the empty spots below are empty.
  await page.evaluate(() => { (window as unknown as ToolWindow).cuttleTool.flow.view!.setViewport({ x: 40, y: 40, zoom: 1 }); });
  const editor = (await page.locator('#flow-editor').boundingBox())!;

  // Add a timer and a counter from the palette: pointer over empty space, Space, type, Enter.
  const addNode = async (at: Point, query: string): Promise<string | undefined> => {
    await page.mouse.click(at.x, at.y);
    await page.keyboard.press('Space');
    await page.locator('#flow-editor .cfe-palette input').waitFor({ state: 'visible' });
    await page.keyboard.type(query);
    await page.keyboard.press('Enter');
    return flow(page, (p) => p.document!.nodes.at(-1)?.id);
  };
  const timer = await addNode({ x: editor.x + 80, y: editor.y + 200 }, 'event timer');
  const counter = await addNode({ x: editor.x + 360, y: editor.y + 200 }, 'logic counter');
  const types = await flow(page, (p) => p.document!.nodes.map((n) => n.type));
  check('Space, type, Enter adds nodes from the palette', timer !== undefined && counter !== undefined && types.join() === 'event/unit_spawned,logic/once,event/timer,logic/counter', types.join());
  await page.waitForSelector(`#flow-editor [data-node="${counter}"]`);

  // Link timer.tick -> counter.in by dragging pin to pin.
  await drag(page, await pinAt(page, timer!, 'tick', 'output'), await pinAt(page, counter!, 'in', 'input'));
  const links = await flow(page, (p) => p.document!.links.map((l) => l.id));
  check('dragging from pin to pin links them', links.some((l) => l.includes(`${timer}.tick`) && l.includes(`${counter}.in`)), links.join(' '));

  // A wrong link: the timer's event output onto the counter's int input, refused; nothing changes.
  const before = await flow(page, (p) => ({ version: p.document!.version, source: p.document!.toSource() }));
  await drag(page, await pinAt(page, timer!, 'tick', 'output'), await pinAt(page, counter!, 'target', 'input'));
  const after = await flow(page, (p) => ({ version: p.document!.version, source: p.document!.toSource(), status: p.view!.status }));
  check('a wrong link is refused and changes nothing', after.version === before.version && after.source === before.source && after.status.includes('Refused'), after.status);

  // Save with Ctrl+S: the server writes and compiles, the page sends reload, the engine switches the lamps.
  const sourceBefore = readFileSync(join(source, 'flow', 'lamp.flow'), 'utf8');
  // The counter glows for 250 ms once a second; Playwright polls a waiting selector about once a
  // second too, so it can miss every glow. The page records the moment the class is added.
  await page.evaluate((id) => {
    const seen = window as unknown as { counterGlowed?: boolean };
    seen.counterGlowed = false;
    const editor = document.querySelector('#flow-editor')!;
    const observer = new MutationObserver(() => {
      if (editor.querySelector(`[data-node="${id}"].cfe-ran`) === null) return;
      seen.counterGlowed = true;
      observer.disconnect();
    });
    observer.observe(editor, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  }, counter!);
  const saveStart = performance.now();
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => (window as unknown as ToolWindow).cuttleTool.flow.state.reloads.length >= 1, undefined, { timeout: 30_000 });
  const saveMs = performance.now() - saveStart;
  const save = await flow(page, (p) => ({ saves: p.state.saves, reloads: p.state.reloads, dirty: p.state.dirty }));
  const written = readFileSync(join(source, 'flow', 'lamp.flow'), 'utf8');
  check('Ctrl+S writes the graph and the compiler compiles it', save.saves[0]?.ok === true && save.saves[0].compiled.includes('flow/lamp.flow') && written !== sourceBefore && written.includes('type = "event/timer"') && written.startsWith('// Per-lamp script') && !save.dirty, JSON.stringify(save.saves[0]));
  const report = save.reloads[0] as { ok: boolean; mode?: string; reports: { graph: string; report: { instances: number } | null }[] } | undefined;
  check('the engine reloads the graph into the running lamps (the reload report arrives)', report?.ok === true && report.reports.some((r) => r.graph === 'flow/lamp.flow' && (r.report?.instances ?? 0) >= 1), `${saveMs.toFixed(0)} ms save to report; ${JSON.stringify(report)}`);

  // The new graph runs: the counter glows (the timer ticks every second) and its count shows on hover.
  await page.waitForFunction(() => (window as unknown as { counterGlowed?: boolean }).counterGlowed === true, undefined, { timeout: 10_000, polling: 50 });
  check('the counter glows when it runs', true);
  const countPin = await pinAt(page, counter!, 'count', 'output');
  await page.mouse.move(countPin.x - 20, countPin.y, { steps: 2 });
  await page.mouse.move(countPin.x, countPin.y, { steps: 3 });
  await page.waitForFunction(() => /^count = [1-9]\d*$/.test((window as unknown as ToolWindow).cuttleTool.flow.view!.pinValueText), undefined, { timeout: 10_000 });
  const shown = await page.locator('#flow-editor .cfe-pin-value').innerText();
  check('hovering the count pin shows its last value', /^count = [1-9]\d*$/.test(shown), shown);

  // A breakpoint on the counter (the dot left of its title): lamp_03 pauses, frames go on.
  const dot = (await page.locator(`#flow-editor [data-node="${counter}"] .cfe-bp`).boundingBox())!;
  await page.mouse.click(dot.x + dot.width / 2, dot.y + dot.height / 2);
  await page.waitForFunction((id) => (window as unknown as ToolWindow).cuttleTool.flow.state.breakpoints.includes(id), counter!, { timeout: 5000 });
  await page.waitForFunction((id) => (window as unknown as ToolWindow).cuttleTool.flow.state.paused?.node === id, counter!, { timeout: 10_000 });
  const marked = await page.locator(`#flow-editor [data-node="${counter}"].cfe-paused`).count();
  const framesAtPause = await frames();
  await page.waitForTimeout(1200);
  const framesLater = await frames();
  check('a breakpoint pauses lamp_03 before the counter; frames keep arriving', marked === 1 && (await page.locator('#flow-continue').isEnabled()) && framesLater > framesAtPause, `${framesLater - framesAtPause} frames in 1.2 s while paused; ${await page.locator('#flow-status').innerText()}`);

  // Clear the breakpoint and continue: the lamp runs on and its counter counts again.
  // The pause brought the node into view: the pins and the dot may have moved. The count while paused:
  const count = async (): Promise<number> => {
    const pin = await pinAt(page, counter!, 'count', 'output');
    await page.mouse.move(pin.x - 20, pin.y, { steps: 2 });
    await page.mouse.move(pin.x, pin.y, { steps: 3 });
    await page.waitForFunction(() => /^count = \d+$/.test((window as unknown as ToolWindow).cuttleTool.flow.view!.pinValueText), undefined, { timeout: 5000 });
    return Number((await flow(page, (p) => p.view!.pinValueText)).slice('count = '.length));
  };
  const countAtPause = await count();
  await page.waitForTimeout(1200);
  const countStill = await count();
  // Step: the held counter runs once (its count moves by one) and the lamp stops again, before
  // its next node, with the step as the reason.
  await page.click('#flow-step');
  await page.waitForFunction(() => (window as unknown as ToolWindow).cuttleTool.flow.state.paused?.why === 'step', undefined, { timeout: 10_000 });
  // The new value comes with the next activity report (at most 10 a second).
  const stepPin = await pinAt(page, counter!, 'count', 'output');
  await page.mouse.move(stepPin.x - 20, stepPin.y, { steps: 2 });
  await page.mouse.move(stepPin.x, stepPin.y, { steps: 3 });
  await page.waitForFunction((was) => Number((window as unknown as ToolWindow).cuttleTool.flow.view!.pinValueText.slice('count = '.length)) > was, countStill, { timeout: 5000 }).catch(() => undefined);
  await page.waitForTimeout(400);
  const countStepped = await count();
  check('Step runs the held node once and pauses again', countStepped === countStill + 1 && (await page.locator('#flow-continue').isEnabled()), `count ${countStill} before Step, ${countStepped} after; ${await page.locator('#flow-status').innerText()}`);
  const dotNow = (await page.locator(`#flow-editor [data-node="${counter}"] .cfe-bp`).boundingBox())!;
  await page.mouse.click(dotNow.x + dotNow.width / 2, dotNow.y + dotNow.height / 2);
  await page.waitForFunction(() => (window as unknown as ToolWindow).cuttleTool.flow.state.breakpoints.length === 0, undefined, { timeout: 5000 });
  await page.click('#flow-continue');
  await page.waitForFunction(() => (window as unknown as ToolWindow).cuttleTool.flow.state.paused === undefined, undefined, { timeout: 5000 });
  const pinNow = await pinAt(page, counter!, 'count', 'output');
  await page.mouse.move(pinNow.x - 20, pinNow.y, { steps: 2 });
  await page.mouse.move(pinNow.x, pinNow.y, { steps: 3 });
  await page.waitForFunction((was) => {
    const text = (window as unknown as ToolWindow).cuttleTool.flow.view!.pinValueText;
    return /^count = \d+$/.test(text) && Number(text.slice('count = '.length)) > was;
  }, countStepped, { timeout: 10_000 });
  check('Continue lets it run on (the count moves again)', countStill === countAtPause && countStepped > countStill && (await page.locator('#flow-editor .cfe-paused').count()) === 0 && !(await page.locator('#flow-continue').isEnabled()), `count ${countAtPause} at the pause, ${countStill} 1.2 s later, then ${await flow(page, (p) => p.view!.pinValueText)}`);

  // A graph the compiler refuses: the page hears the compiler's message, the lamps keep the graph they run.
  // And a path outside the project is refused before anything is read.
  // (No named functions inside evaluate: tsx's keepNames would call a helper the page lacks.)
  const bodies = [
    { path: 'flow/lamp.flow', text: 'flow = 1\nkind = "unit"\nnodes = [ { id = "x" type = "logic/nope" } ]\n' },
    { path: '../../etc/passwd.flow', text: 'flow = 1' },
  ];
  const errorsBefore = errors.length;
  const answers = await page.evaluate(async (list) => {
    const key = new URLSearchParams(location.hash.slice(1)).get('key') ?? '';
    const replies: { status: number; error: string }[] = [];
    for (const body of list) {
      const response = await fetch('/api/flow', { method: 'POST', headers: { 'x-tool-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      replies.push({ status: response.status, error: String(((await response.json()) as { error?: string }).error) });
    }
    return replies;
  }, bodies);
  const refused = { broken: answers[0]!, outside: answers[1]! };
  // The browser logs the two refusals it was asked to make as failed loads; those are expected.
  await page.waitForTimeout(100);
  for (let i = errors.length - 1; i >= errorsBefore; i--) if (/status of (422|400)/.test(errors[i]!)) errors.splice(i, 1);
  check('a graph the compiler refuses comes back with its message', refused.broken.status === 422 && refused.broken.error.includes('flow/lamp.flow') && refused.broken.error.includes('nope'), refused.broken.error.replace(/\s+/g, ' ').slice(0, 160));
  check('a path outside the project is refused', refused.outside.status === 400, refused.outside.error);
  const countThen = await count();
  await page.waitForFunction((was) => Number((window as unknown as ToolWindow).cuttleTool.flow.view!.pinValueText.slice('count = '.length)) > was, countThen, { timeout: 10_000 });
  check('the lamps keep running the old graph after a refused compile', true, `count ${countThen} -> ${await flow(page, (p) => p.view!.pinValueText)}`);
  check('no page errors', errors.length === 0, errors.join('; '));
});

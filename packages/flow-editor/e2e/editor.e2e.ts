// Browser test of the view, driven by real pointer and key events (playwright's page.mouse and
// page.keyboard in Debian's headless Chromium): add a node from the palette, link two pins, try
// a wrong link (refused at the pin, nothing changes), move, undo and redo, delete, copy and
// paste, select with a rectangle, pan, zoom and use the minimap, checking the saved source after
// each step; the live-debugging overlay (glow, a pin's value on hover, a breakpoint toggled by
// its dot and F9). Then the 1,000-node graph panned and zoomed with the mouse, its frame times printed.
// Run: pnpm --filter @cuttle/flow-editor test:browser
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { summarise, type FrameStats } from '../bench/drawing/frame-driver.ts';
import { bundle, checkBuiltDependencies, launchChromium, PACKAGE_ROOT, serve, writePage } from './harness.ts';

interface Point { x: number; y: number }
interface FlowTest {
  source(): string;
  nodes(): { id: string; type: string; x: number; y: number }[];
  links(): string[];
  issues(id: string): string[];
  undoLabels(): string[];
  selected(): { nodes: string[] };
  viewport(): { x: number; y: number; zoom: number };
  status(): string;
  pin(node: string, pin: string, direction: 'input' | 'output'): Point | undefined;
  title(node: string): Point | undefined;
  at(x: number, y: number): Point;
  minimap(): { x: number; y: number; width: number; height: number };
  activity(runs: Record<string, number>): void;
  pinValues(values: Record<string, number[]>): void;
  pausedAt(id: string | undefined): void;
  toggles(): [string, boolean][];
  breakpoints(): string[];
  pinValueText(): string;
  litNodes(): number;
}
declare const window: { flowTest: FlowTest };

const started = performance.now();
let failed = 0;
function check(name: string, ok: boolean, detail = ''): void {
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail === '' ? '' : `: ${detail}`}`);
}

async function drag(page: Page, from: Point, to: Point, steps = 8): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps });
  await page.mouse.up();
}

checkBuiltDependencies();
const out = mkdtempSync(join(tmpdir(), 'cuttle-flow-editor-e2e-'));
await bundle(join(PACKAGE_ROOT, 'e2e/editor-page.ts'), out, 'editor');
await bundle(join(PACKAGE_ROOT, 'bench/drawing/page-own.ts'), out, 'big');
writePage(out, 'editor', 'flow editor test');
writePage(out, 'big', '1,000 nodes');
const { url, server } = await serve(out);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/editor.html`);
  await page.waitForFunction(() => 'flowTest' in window);
  const api = {
    source: () => page.evaluate(() => window.flowTest.source()),
    nodes: () => page.evaluate(() => window.flowTest.nodes()),
    links: () => page.evaluate(() => window.flowTest.links()),
    pin: (node: string, pin: string, direction: 'input' | 'output') => page.evaluate(([n, p, d]) => window.flowTest.pin(n, p, d)!, [node, pin, direction] as const),
    title: (node: string) => page.evaluate((n) => window.flowTest.title(n)!, node),
    at: (x: number, y: number) => page.evaluate(([gx, gy]) => window.flowTest.at(gx, gy), [x, y] as const),
  };
  const initial = await api.source();

  // The issue of the undeclared variable is on its node: a marker, and the message on hover.
  await page.mouse.move((await api.title('shield')).x, (await api.title('shield')).y);
  await page.locator('[data-node="shield"] .cfe-issue-text').waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
  const issueText = await page.locator('[data-node="shield"] .cfe-issue-text').innerText().catch(() => '');
  check('an issue shows on its node (marker, message on hover)', (await page.locator('[data-node="shield"] .cfe-issue').count()) === 1 && (await page.locator('[data-node="shield"] .cfe-issue-text').isVisible()) && issueText.includes('armour'), issueText.slice(0, 90));

  // Live debugging, fed as a host would: nodes that ran glow and then fade, the count on hover.
  await page.evaluate(() => { window.flowTest.activity({ start: 1, store: 2, nope: 1 }); });
  const lit = await page.evaluate(() => [...document.querySelectorAll('.cfe-node.cfe-ran')].map((e) => `${(e as HTMLElement).dataset.node}:${(e as HTMLElement).dataset.runs}`));
  await page.mouse.move((await api.title('store')).x, (await api.title('store')).y);
  const badge = await page.evaluate(() => getComputedStyle(document.querySelector('[data-node="store"]')!, '::after').content);
  await page.waitForFunction(() => document.querySelector('.cfe-node.cfe-ran') === null, undefined, { timeout: 3000 }).catch(() => undefined);
  const dark = await page.evaluate(() => window.flowTest.litNodes());
  check('nodes that ran glow, show their count on hover, and go dark after', lit.join(' ') === 'start:1 store:2' && badge.includes('ran 2') && dark === 0, `${lit.join(' ')} ${badge} lit after: ${dark}`);

  // A hovered pin shows its last value.
  await page.evaluate(() => { window.flowTest.pinValues({ damage: [100, 40, 60] }); });
  const result = await api.pin('damage', 'result', 'output');
  await page.mouse.move(result.x, result.y, { steps: 3 });
  await page.locator('.cfe-pin-value').waitFor({ state: 'visible', timeout: 2000 }).catch(() => undefined);
  const shown = await page.locator('.cfe-pin-value').innerText().catch(() => '');
  const pinB = await api.pin('damage', 'b', 'input');
  await page.mouse.move(pinB.x, pinB.y, { steps: 3 });
  const shownB = await page.evaluate(() => window.flowTest.pinValueText());
  check('hovering a pin shows its last value', shown === 'result = 60' && shownB === 'b = 40', `${shown} | ${shownB}`);

  // Breakpoints: a click on the title's gutter dot, F9 on the focused node; pure nodes have no dot.
  const dotBox = await page.locator('[data-node="store"] .cfe-bp').boundingBox();
  if (dotBox !== null) await page.mouse.click(dotBox.x + dotBox.width / 2, dotBox.y + dotBox.height / 2);
  const afterClick = { toggles: await page.evaluate(() => window.flowTest.toggles()), shown: await page.locator('[data-node="store"].cfe-breakpoint').count() };
  await page.keyboard.press('F9');
  const afterF9 = { toggles: await page.evaluate(() => window.flowTest.toggles()), breakpoints: await page.evaluate(() => window.flowTest.breakpoints()) };
  await page.evaluate(() => { window.flowTest.pausedAt('store'); });
  const paused = await page.locator('[data-node="store"].cfe-paused').count();
  await page.evaluate(() => { window.flowTest.pausedAt(undefined); });
  check('a click on the gutter dot sets a breakpoint, F9 clears it; the paused node is marked', JSON.stringify(afterClick.toggles) === '[["store",true]]' && afterClick.shown === 1 && JSON.stringify(afterF9.toggles) === '[["store",true],["store",false]]' && afterF9.breakpoints.length === 0 && paused === 1 && (await page.locator('[data-node="damage"] .cfe-bp').count()) === 0, JSON.stringify({ afterClick, afterF9, paused }));

  // Palette: Space over empty space, type, Enter adds the node where the palette opened.
  const spot = await api.at(300, 380);
  await page.mouse.move(spot.x, spot.y);
  await page.mouse.click(spot.x, spot.y);
  await page.keyboard.press('Space');
  await page.locator('.cfe-palette input').waitFor({ state: 'visible' });
  await page.keyboard.type('compare');
  const firstOption = await page.locator('.cfe-palette [role=option]').first().getAttribute('data-type');
  await page.keyboard.press('Enter');
  const added = (await api.nodes()).find((n) => n.type === 'logic/compare');
  const afterAdd = await api.source();
  check('palette (Space, type "compare", Enter) adds logic/compare where it opened', firstOption === 'logic/compare' && added !== undefined && Math.abs(added.x - 300) <= 1 && Math.abs(added.y - 380) <= 1 && afterAdd.includes('type = "logic/compare"') && afterAdd.includes('position = [300 380]'), JSON.stringify(added));
  const compare = added?.id ?? 'compare';
  await page.waitForSelector(`[data-node="${compare}"]`);

  // Link damage.result -> compare.a by dragging from pin to pin.
  await drag(page, await api.pin('damage', 'result', 'output'), await api.pin(compare, 'a', 'input'));
  const linked = await api.source();
  check('dragging from a pin to a pin links them', (await api.links()).includes(`data:damage.result->${compare}.a`) && linked.includes(`from = "damage.result"`) && linked.includes(`to = "${compare}.a"`));

  // A wrong link: start's event output onto compare's float input. Refused at the pin while hovering; nothing changes on release.
  const linksBefore = await api.links();
  await page.mouse.move(...Object.values(await api.pin('start', 'out', 'output')) as [number, number]);
  await page.mouse.down();
  const target = await api.pin(compare, 'b', 'input');
  await page.mouse.move(target.x, target.y, { steps: 8 });
  const refusedPin = await page.locator(`[data-node="${compare}"] .cfe-pin[data-pin="b"].cfe-refused`).count();
  const statusWhileHovering = await page.evaluate(() => window.flowTest.status());
  await page.mouse.up();
  const statusAfter = await page.locator('.cfe-status').innerText();
  check('a wrong link is refused at the pin, with the message', refusedPin === 1 && statusWhileHovering.startsWith('Refused:') && statusAfter.includes('Refused:'), statusAfter);
  check('a refused link changes nothing', JSON.stringify(await api.links()) === JSON.stringify(linksBefore) && (await api.source()) === linked);

  // Move: drag the title bar; one undo step for the whole drag.
  const from = await api.title(compare);
  const undoBefore = (await page.evaluate(() => window.flowTest.undoLabels())).length;
  await drag(page, from, { x: from.x + 80, y: from.y + 40 }, 10);
  const moved = (await api.nodes()).find((n) => n.id === compare)!;
  const undoAfter = await page.evaluate(() => window.flowTest.undoLabels());
  check('dragging a node moves it, one undo step per drag', moved.x === 380 && moved.y === 420 && (await api.source()).includes('position = [380 420]') && undoAfter.length === undoBefore + 1 && undoAfter.at(-1) === 'move', `${moved.x},${moved.y} ${JSON.stringify(undoAfter.slice(-2))}`);

  // Undo and redo from the keyboard.
  await page.keyboard.press('Control+z');
  const undone = (await api.nodes()).find((n) => n.id === compare)!;
  await page.keyboard.press('Control+Shift+z');
  const redone = (await api.nodes()).find((n) => n.id === compare)!;
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+y');
  const redoneY = (await api.nodes()).find((n) => n.id === compare)!;
  check('Ctrl+Z undoes the move, Ctrl+Shift+Z and Ctrl+Y redo it', undone.x === 300 && undone.y === 380 && redone.x === 380 && redoneY.x === 380 && (await api.source()).includes('position = [380 420]'));

  // Delete the node (its link goes with it), then undo.
  await page.mouse.click((await api.title(compare)).x, (await api.title(compare)).y);
  await page.keyboard.press('Delete');
  const deleted = await api.source();
  check('Delete removes the selected node and its links', !deleted.includes('logic/compare') && !(await api.links()).some((l) => l.includes(compare)));
  await page.keyboard.press('Control+z');
  // The deleted node had the focus: the key must still reach the editor once its element is gone.
  const restoredLinks = await api.links();
  check('undo brings it back with its link', (await api.source()).includes('logic/compare') && restoredLinks.includes(`data:damage.result->${compare}.a`), JSON.stringify({ links: restoredLinks, undo: await page.evaluate(() => window.flowTest.undoLabels()) }));

  // Copy and paste: select damage, Ctrl+C, point at an empty spot, Ctrl+V.
  await page.mouse.click((await api.title('damage')).x, (await api.title('damage')).y);
  await page.keyboard.press('Control+c');
  const pasteAt = await api.at(600, 300);
  await page.mouse.move(pasteAt.x, pasteAt.y);
  await page.keyboard.press('Control+v');
  const pasted = (await api.nodes()).filter((n) => n.type === 'math/sub');
  const pastedSource = await api.source();
  check('Ctrl+C, Ctrl+V pastes a copy with a fresh id where the pointer is', pasted.length === 2 && pasted[1]!.x === 600 && pasted[1]!.y === 300 && pastedSource.includes(`id = "${pasted[1]!.id}"`), JSON.stringify(pasted[1]));
  const selectedAfterPaste = await page.evaluate(() => window.flowTest.selected().nodes);
  check('the pasted node is selected', selectedAfterPaste.length === 1 && selectedAfterPaste[0] === pasted[1]!.id);

  // Rectangle selection: shift+drag around start and health.
  const a = await api.at(-40, -40);
  const b = await api.at(120, 200);
  await page.keyboard.down('Shift');
  await drag(page, a, b);
  await page.keyboard.up('Shift');
  const rect = await page.evaluate(() => window.flowTest.selected().nodes);
  check('shift+drag on empty space selects the nodes in the rectangle', rect.includes('start') && rect.includes('health') && !rect.includes('damage'), JSON.stringify(rect));

  // Pan by dragging empty space, zoom with the wheel around the pointer, the minimap moves the view.
  const v0 = await page.evaluate(() => window.flowTest.viewport());
  const empty = await api.at(800, 600);
  await drag(page, empty, { x: empty.x - 100, y: empty.y - 50 });
  const v1 = await page.evaluate(() => window.flowTest.viewport());
  const under = await api.at(260, 160);
  await page.mouse.move(under.x, under.y);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100); // three notches of a mouse wheel
  await page.waitForTimeout(50);
  const v2 = await page.evaluate(() => window.flowTest.viewport());
  const stillUnder = await api.at(260, 160);
  check('drag on empty space pans; the wheel zooms around the pointer', Math.abs(v1.x - v0.x + 100) < 1 && Math.abs(v1.y - v0.y + 50) < 1 && v2.zoom > v1.zoom * 1.2 && Math.hypot(stillUnder.x - under.x, stillUnder.y - under.y) < 1, JSON.stringify({ v0, v1, v2 }));
  const mm = await page.evaluate(() => window.flowTest.minimap());
  await page.mouse.click(mm.x + mm.width * 0.2, mm.y + mm.height * 0.8);
  const v3 = await page.evaluate(() => window.flowTest.viewport());
  check('clicking the minimap moves the view', Math.abs(v3.x - v2.x) + Math.abs(v3.y - v2.y) > 10, JSON.stringify(v3));

  // Keyboard: Tab reaches a node (focusable, labelled); the palette is a listbox.
  const labels = await page.locator('.cfe-node[tabindex="0"][aria-label]').count();
  check('nodes are focusable with labels; the palette is a listbox', labels === (await api.nodes()).length && (await page.locator('.cfe-palette [role=listbox]').count()) === 1, `${labels} labelled nodes`);
  check('the saved source changed from the opened one and no page errors', (await api.source()) !== initial && errors.length === 0, errors.join('; '));
  await page.close();

  // The 1,000-node graph, panned (drag on empty space) and zoomed (wheel) with the mouse for about 4 s.
  const big = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await big.goto(`${url}/big.html`);
  await big.waitForFunction(() => 'bench' in window, undefined, { timeout: 60_000 });
  // A string, not a function: tsx names inner functions with a helper the page does not have.
  await big.evaluate(`(() => {
    window.frames_ = [];
    window.recording_ = true;
    let last = -1;
    const step = (now) => {
      if (last >= 0) window.frames_.push(now - last);
      last = now;
      if (window.recording_) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })()`);
  const end = performance.now() + 4000;
  let zoomIn = true;
  let right = true;
  await big.mouse.move(640, 400);
  // From the fitted overview (zoom 0.05) into the full top of the graph with the wheel, to about zoom 0.6.
  await big.evaluate(`(() => { const b = window.bench.bounds; window.bench.show(b.x + b.width / 2, b.y + b.height * 0.15, 0.05); })()`);
  for (let i = 0; i < 25; i++) await big.mouse.wheel(0, -100);
  while (performance.now() < end) {
    // Alternate directions so the camera stays over the graph.
    await big.mouse.move(right ? 900 : 300, right ? 600 : 200);
    await big.mouse.down();
    await big.mouse.move(right ? 300 : 900, right ? 200 : 600, { steps: 20 });
    await big.mouse.up();
    right = !right;
    for (let i = 0; i < 6; i++) await big.mouse.wheel(0, zoomIn ? -120 : 120);
    zoomIn = !zoomIn;
  }
  const intervals = await big.evaluate<number[]>('window.recording_ = false, window.frames_');
  const stats: FrameStats = summarise(intervals.slice(5));
  const zoom = await big.evaluate(() => (window as unknown as { bench: { stats(): unknown } }).bench.stats());
  console.log(`1,000 nodes, 1,080 links, mouse pan + wheel zoom: ${stats.frames} frames, mean ${stats.meanMs.toFixed(1)} ms, p95 ${stats.p95Ms.toFixed(1)} ms, ${stats.fps.toFixed(1)} fps, ${stats.slow} frames over 33 ms; view ${JSON.stringify(zoom)}`);
  check('1,000 nodes pan and zoom (generous bound: mean frame under 100 ms)', stats.frames > 10 && stats.meanMs < 100, `${stats.fps.toFixed(1)} fps`);
  await big.close();
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
console.log(`${failed === 0 ? 'all passed' : `${failed} failed`} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed === 0 ? 0 : 1);

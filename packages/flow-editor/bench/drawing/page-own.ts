// Benchmark page (a): the package's own view, DOM nodes in a transformed layer and one SVG.
import { FlowRegistry } from '@cuttle/flow';
import { FlowDocument } from '../../src/index.ts';
import { FlowEditorView } from '../../src/view/index.ts';
import { bigGraphSource } from './big-graph.ts';
import { runPath, type Scenario } from './frame-driver.ts';

const started = performance.now();
const doc = FlowDocument.fromSource(bigGraphSource(), new FlowRegistry());
const params = new URLSearchParams(location.search);
const view = new FlowEditorView(document.getElementById('app')!, doc, { cull: params.get('cull') !== '0' });
const bounds = view.layout.bounds()!;
const openMs = performance.now() - started;

(window as unknown as { bench: unknown }).bench = {
  layer: 'own',
  openMs,
  run: (scenario: Scenario, durationMs?: number) =>
    runPath((cx, cy, zoom) => {
      view.setViewport({ x: view.width / 2 - cx * zoom, y: view.height / 2 - cy * zoom, zoom });
      view.flush();
    }, scenario, bounds, view.width, view.height, durationMs, undefined, () => view.layout.nodesInRect(view.viewport.visibleRect(view.width, view.height)).length),
  /** Centres the view on a graph point at a zoom (the browser test starts its mouse pans there). */
  show: (cx: number, cy: number, zoom: number) => { view.setViewport({ x: view.width / 2 - cx * zoom, y: view.height / 2 - cy * zoom, zoom }); },
  bounds,
  stats: () => ({ ...view.stats, zoom: Number(view.viewportState.zoom.toFixed(3)), onScreen: view.layout.nodesInRect(view.viewport.visibleRect(view.width, view.height)).length }),
};

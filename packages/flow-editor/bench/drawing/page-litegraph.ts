// Benchmark page (b): @comfyorg/litegraph drawing the same document on a canvas. Each Flow node
// type becomes a litegraph node type with the same pins in the same order (event pins first,
// typed "event", data pins typed by value type, coloured with the model's pin colours).
import { FlowRegistry } from '@cuttle/flow';
import { LGraph, LGraphCanvas, LGraphNode, LiteGraph } from '@comfyorg/litegraph';
import { FLOW_PIN_COLOURS, FlowDocument, FlowPalette } from '../../src/index.ts';
import { bigGraphSource } from './big-graph.ts';
import { runPath, type Scenario } from './frame-driver.ts';

const started = performance.now();
const registry = new FlowRegistry();
const doc = FlowDocument.fromSource(bigGraphSource(), registry);
for (const entry of new FlowPalette(registry).entries) {
  class FlowNode extends LGraphNode {
    constructor(title?: string) {
      super(title ?? entry.title);
      for (const pin of entry.inputs) this.addInput(pin.name, pin.kind === 'event' ? 'event' : (pin.valueType ?? '*'));
      for (const pin of entry.outputs) this.addOutput(pin.name, pin.kind === 'event' ? 'event' : (pin.valueType ?? '*'));
    }
  }
  LiteGraph.registerNodeType(entry.type, FlowNode);
}
const canvasTypes = LGraphCanvas as unknown as { link_type_colors: Record<string, string> };
for (const [type, colour] of Object.entries(FLOW_PIN_COLOURS)) canvasTypes.link_type_colors[type] = colour;

const graph = new LGraph();
const byId = new Map<string, LGraphNode>();
for (const node of doc.nodes) {
  const created = LiteGraph.createNode(node.type, node.type.slice(node.type.indexOf('/') + 1));
  if (created === null) throw new Error(`litegraph has no ${node.type}`);
  created.pos = [node.x, node.y];
  graph.add(created);
  byId.set(node.id, created);
}
for (const link of doc.links) {
  const from = doc.pins(link.from.node)!.outputs.findIndex((p) => p.name === link.from.pin && p.kind === link.kind);
  const to = doc.pins(link.to.node)!.inputs.findIndex((p) => p.name === link.to.pin && p.kind === link.kind);
  byId.get(link.from.node)!.connect(from, byId.get(link.to.node)!, to);
}
const element = document.createElement('canvas');
const app = document.getElementById('app')!;
element.width = app.clientWidth;
element.height = app.clientHeight;
app.append(element);
const canvas = new LGraphCanvas(element, graph);
canvas.stopRendering();
let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
for (const n of graph.nodes) {
  x0 = Math.min(x0, n.pos[0]);
  y0 = Math.min(y0, n.pos[1]);
  x1 = Math.max(x1, n.pos[0] + n.size[0]);
  y1 = Math.max(y1, n.pos[1] + n.size[1]);
}
const bounds = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
canvas.draw(true, true);
const openMs = performance.now() - started;

(window as unknown as { bench: unknown }).bench = {
  layer: 'litegraph',
  openMs,
  run: (scenario: Scenario, durationMs?: number) =>
    runPath((cx, cy, zoom) => {
      canvas.ds.scale = zoom;
      canvas.ds.offset = [element.width / 2 / zoom - cx, element.height / 2 / zoom - cy];
      canvas.draw(true, true);
    }, scenario, bounds, element.width, element.height, durationMs),
  stats: () => ({ nodes: graph.nodes.length, links: graph.links.size, lowQuality: canvas.low_quality }),
};

// The browser test's page: a small graph in a FlowEditorView, with a hook on window for the test
// to read the saved source, to find where things are drawn (in client pixels) and to feed the
// live-debugging overlay as a host would.
import { FlowRegistry } from '@cuttle/flow';
import { FlowDocument } from '../src/index.ts';
import { FlowEditorView } from '../src/view/index.ts';

const SOURCE = `// a small graph for the browser test
flow = 1
kind = "unit"
variables = {
    health = { type = "float" value = 100 }
}
nodes = [
    { id = "start" type = "event/level_loaded" editor = { position = [0 0] } }
    { id = "health" type = "variable/get" settings = { variable = "health" } editor = { position = [0 160] } }
    { id = "damage" type = "math/sub" inputs = { b = 40 } editor = { position = [260 160] } }
    { id = "store" type = "variable/set" settings = { variable = "health" } editor = { position = [520 0] } }
    { id = "shield" type = "variable/get" settings = { variable = "armour" } editor = { position = [0 320] } }
]
events = [
    { from = "start.out" to = "store.in" }
]
links = [
    { from = "health.value" to = "damage.a" }
]
editor = {
    comments = [
        { id = "note" text = "Damage" rect = [-20 120 480 120] }
    ]
}
`;

const doc = FlowDocument.fromSource(SOURCE, new FlowRegistry());
const view = new FlowEditorView(document.getElementById('app')!, doc);
view.setViewport({ x: 120, y: 120, zoom: 1 });

function client(gx: number, gy: number): { x: number; y: number } {
  const box = view.element.getBoundingClientRect();
  const p = view.viewport.toScreen(gx, gy);
  return { x: box.left + p.x, y: box.top + p.y };
}

const toggles: [string, boolean][] = [];
view.onBreakpointToggle((id, on) => {
  toggles.push([id, on]);
  return undefined;
});

(window as unknown as { flowTest: unknown }).flowTest = {
  /** Live debugging as a host feeds it: run counts and pin values by node id. */
  activity: (runs: Record<string, number>) => { view.setActivity(new Map(Object.entries(runs))); },
  pinValues: (values: Record<string, number[]>) => { view.setPinValues(new Map(Object.entries(values))); },
  pausedAt: (id: string | undefined) => { view.setPausedAt(id); },
  toggles: () => toggles,
  breakpoints: () => [...view.breakpoints],
  pinValueText: () => view.pinValueText,
  litNodes: () => view.litNodes,
  source: () => doc.toSource(),
  nodes: () => doc.nodes.map((n) => ({ id: n.id, type: n.type, x: n.x, y: n.y })),
  links: () => doc.links.map((l) => l.id),
  issues: (id: string) => doc.issuesOf(id).map((i) => i.message),
  undoLabels: () => doc.undoLabels,
  selected: () => view.selected,
  viewport: () => view.viewportState,
  status: () => view.status,
  /** Client pixels of a pin's anchor. */
  pin: (node: string, pin: string, direction: 'input' | 'output') => {
    const a = view.layout.anchor({ node, pin }, direction);
    return a === undefined ? undefined : client(a.x, a.y);
  },
  /** Client pixels of the middle of a node's title bar. */
  title: (node: string) => {
    const r = view.layout.rect(node);
    return r === undefined ? undefined : client(r.x + r.width / 2, r.y + 12);
  },
  /** Client pixels of a graph point. */
  at: (gx: number, gy: number) => client(gx, gy),
  minimap: () => {
    const r = view.minimap!.canvas.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  },
};

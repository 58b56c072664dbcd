// Clickable crates driven by @cuttle/flow. Each crate is a Flow instance of one compiled graph
// (SJSON source in graphs.ts); clicks enter as external events, blasts from exploding
// neighbours as collisions. The graph decides the tint, the blinking fuse and the explosion;
// this file only draws what the actions report. Beside the crates, the graph in a
// @cuttle/flow-editor view (graph-panel.ts): the crate last clicked lights the nodes it runs,
// breakpoints pause it, and an edited graph is applied to the running crates.
import { compileFlowGraph, FlowRegistry, FlowRuntime, loadFlowProgram, type FlowInstance, type FlowProgram } from '@cuttle/flow';
import { InstancedQuads } from '../../render/instanced-quads.ts';
import type { SceneDefinition } from '../../scene-api.ts';
import { CrateGraphPanel } from './graph-panel.ts';
import { CRATE_GRAPH, LEVEL_GRAPH } from './graphs.ts';

const COLS = 6;
const ROWS = 4;
const CRATES = COLS * ROWS;
const SIZE = 0.3;
const EXPLOSION_SECONDS = 0.45;
const RESPAWN_SECONDS = 2.5;
/** The panel is wider in this scene (the graph editor is in it); the shell's layout is restored on leaving. */
const PANEL_COLUMNS = '1fr minmax(18rem, 48%)';
const PANEL_CSS = `
.flow-graph-panel{display:flex;flex-direction:column;gap:0.4rem;height:100%;min-height:22rem}
.flow-graph-bar{display:flex;gap:0.4rem}
.flow-graph-bar button{font:inherit;padding:0.2rem 0.7rem;border-radius:4px;border:1px solid #3a4156;background:#1d2230;color:#d8dbe6;cursor:pointer}
.flow-graph-bar button:disabled{opacity:0.45;cursor:default}
.flow-graph-editor{flex:1;min-height:14rem;border:1px solid #232838;border-radius:4px;overflow:hidden}
.flow-graph-message{margin:0;min-height:2.6em;font-size:13px}
.flow-graph-message.error{color:#ff9c9c}
.flow-graph-panel > p:last-child{margin:0;font-size:12px;color:#8d93a1}
`;

export const scene: SceneDefinition = {
  id: 'flow',
  title: 'Flow: clickable crates',
  package: '@cuttle/flow',
  description: 'Click a crate three times: a Flow graph tints it, lights a blinking fuse and blows it up, and the blast hits its neighbours. The graph beside it lights up as the clicked crate runs it, and can be edited and applied to the running crates.',
  create({ device, format, canvas, panel }) {
    const quads = new InstancedQuads(device, format, CRATES);
    // Per crate: tint (0..1), flash on/off, seconds since it exploded (-1: intact).
    const tint = new Float32Array(CRATES);
    const flash = new Uint8Array(CRATES);
    const explodedAt = new Float32Array(CRATES).fill(-1);
    let now = 0;
    let score = 0;
    const pendingBlasts: number[] = [];

    const registry = new FlowRegistry();
    registry.defineAction({ name: 'tint', inputs: [{ name: 'amount', type: 'float' }], run: (call) => { tint[call.instance.unit] = Math.min(1, call.number(0)); } });
    registry.defineAction({ name: 'flash', run: (call) => { flash[call.instance.unit] = flash[call.instance.unit] ? 0 : 1; } });
    registry.defineAction({
      name: 'explode',
      run: (call) => {
        const unit = call.instance.unit;
        explodedAt[unit] = now;
        flash[unit] = 0;
        runtime.external(level, exploded, 0);
        // Blasts reach the four neighbours on the next frame, so chains ripple outwards.
        const col = unit % COLS;
        if (col > 0) pendingBlasts.push(unit - 1);
        if (col < COLS - 1) pendingBlasts.push(unit + 1);
        if (unit >= COLS) pendingBlasts.push(unit - COLS);
        if (unit < CRATES - COLS) pendingBlasts.push(unit + COLS);
      },
    });
    registry.defineAction({ name: 'score', inputs: [{ name: 'count', type: 'int' }], run: (call) => { score = call.number(0); } });

    let crateProgram: FlowProgram = loadFlowProgram(compileFlowGraph(CRATE_GRAPH, registry), registry);
    const levelProgram = loadFlowProgram(compileFlowGraph(LEVEL_GRAPH, registry), registry);
    const runtime = new FlowRuntime();
    const level = levelProgram.instantiate();
    const exploded = levelProgram.externalEvent('exploded');
    // An edited graph may lack the click event: then clicks only select the crate to watch.
    const clickEvent = (program: FlowProgram): number => (program.externalEventNames().includes('click') ? program.externalEvent('click') : -1);
    let click = clickEvent(crateProgram);
    const crates: FlowInstance[] = [];
    for (let i = 0; i < CRATES; i++) {
      const crate = crateProgram.instantiate(i);
      crates.push(crate);
      runtime.unitSpawned(crate);
    }
    runtime.levelLoaded(level);

    const centerX = (i: number): number => ((i % COLS) - (COLS - 1) / 2) * 0.32;
    const centerY = (i: number): number => ((ROWS - 1) / 2 - Math.floor(i / COLS)) * 0.42;

    const onPointer = (event: PointerEvent): void => {
      const rect = canvas.getBoundingClientRect();
      const x = ((event.clientX - rect.left) / rect.width) * 2 - 1;
      const y = 1 - ((event.clientY - rect.top) / rect.height) * 2;
      const aspect = rect.width / rect.height;
      for (let i = 0; i < CRATES; i++) {
        if (explodedAt[i]! >= 0) continue;
        if (Math.abs(x - centerX(i)) > SIZE / 2 / aspect || Math.abs(y - centerY(i)) > SIZE / 2) continue;
        graph.watch(crates[i]!); // before the click, so its run lights up
        if (click >= 0) runtime.external(crates[i]!, click, 1);
      }
    };
    canvas.addEventListener('pointerdown', onPointer);

    const graph = new CrateGraphPanel({
      registry,
      runtime,
      crates,
      program: crateProgram,
      reloaded: (program) => {
        crateProgram = program;
        click = clickEvent(program);
        info.textContent = blobInfo();
      },
    }, CRATE_GRAPH);
    const style = document.createElement('style');
    style.textContent = PANEL_CSS;
    const blobInfo = (): string => `Each crate runs the same ${crateProgram.stats.staticBytes}-byte graph blob with its own ${crateProgram.stats.dynamicBytes}-byte state.`;
    const info = document.createElement('p');
    info.textContent = blobInfo();
    graph.element.append(info);
    const layout = canvas.parentElement;
    const columns = layout?.style.gridTemplateColumns ?? '';
    if (layout) layout.style.gridTemplateColumns = PANEL_COLUMNS;
    panel.append(style, graph.element);
    graph.attach();

    return {
      frame({ dt, encoder, target, width, height }) {
        now += dt;
        const blasts = pendingBlasts.splice(0);
        for (const unit of blasts) if (explodedAt[unit]! < 0) runtime.collision(crates[unit]!, -1);
        for (let i = 0; i < CRATES; i++) {
          if (explodedAt[i]! >= 0 && now - explodedAt[i]! > RESPAWN_SECONDS) {
            explodedAt[i] = -1;
            crates[i]!.reset();
            runtime.unitSpawned(crates[i]!);
          }
          runtime.update(crates[i]!, Math.max(0, dt)); // the first frame after a page load can be stamped before the scene started
        }
        for (let i = 0; i < CRATES; i++) {
          const t = tint[i]!;
          const age = explodedAt[i]! >= 0 ? now - explodedAt[i]! : -1;
          const bright = flash[i] ? 1.6 : 1;
          quads.positions[2 * i] = centerX(i);
          quads.positions[2 * i + 1] = centerY(i);
          // Green to orange to red with hits; an explosion swells and fades to nothing.
          quads.colors.set([Math.min(1, (0.2 + 0.8 * t) * bright), Math.min(1, (0.75 - 0.55 * t) * bright), 0.25 * (1 - t) * bright, 1], 4 * i);
          quads.sizes[i] = SIZE;
          if (age >= 0) {
            const k = Math.min(1, age / EXPLOSION_SECONDS);
            quads.colors.set([1, 0.85 - 0.6 * k, 0.3 * (1 - k), 1 - k], 4 * i);
            quads.sizes[i] = SIZE * (1 + 1.5 * k);
          }
        }
        quads.draw(encoder, target, CRATES, width / height);
        graph.frame();
      },
      stats: () => ({ crates: String(CRATES), exploded: String(score), 'flow nodes run': runtime.executions.toLocaleString(), watching: graph.watched === undefined ? 'none' : `crate ${graph.watched.unit}` }),
      destroy() {
        canvas.removeEventListener('pointerdown', onPointer);
        graph.destroy();
        style.remove();
        if (layout) layout.style.gridTemplateColumns = columns;
        quads.destroy();
      },
    };
  },
};

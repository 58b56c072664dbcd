// The crate graph beside the crates, in a @cuttle/flow-editor view: the crate last clicked is
// watched, and each frame its node runs and pin values go to the view (nodes glow, pins show
// values on hover). Breakpoints set in the view pause that crate alone (Continue, Step); Apply
// compiles the edited graph and reloads it into every running crate, keeping their state, or
// shows the graph's issues and leaves the crates on the old graph. The view never sees the
// runtime: this file is the host that feeds it.
import { compileFlowGraph, FlowError, FlowGraphError, loadFlowProgram, type FlowInstance, type FlowProgram, type FlowRegistry, type FlowRuntime, type FlowWatch } from '@cuttle/flow';
import { FlowDocument } from '@cuttle/flow-editor';
import { FlowEditorView } from '@cuttle/flow-editor/view';

export interface GraphPanelHost {
  registry: FlowRegistry;
  runtime: FlowRuntime;
  /** Every running crate: Apply reloads them all. */
  crates: readonly FlowInstance[];
  /** The crates' program now. */
  program: FlowProgram;
  /** Called after a reload with the new program. */
  reloaded(program: FlowProgram): void;
}

function button(text: string, title: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.title = title;
  return b;
}

export class CrateGraphPanel {
  readonly element: HTMLElement;
  readonly view: FlowEditorView;
  readonly document: FlowDocument;
  readonly #host: GraphPanelHost;
  readonly #message: HTMLElement;
  readonly #continue: HTMLButtonElement;
  readonly #step: HTMLButtonElement;
  /** Breakpoints the user set, by node id: they follow the watched crate. */
  readonly #breakpoints = new Set<string>();
  #watched: FlowInstance | undefined;
  #watch: FlowWatch | undefined;
  /** Node ids by index for the crates' program (what the watch's arrays are indexed by). */
  #ids: string[] = [];
  // Reused every frame: the view reads the watch's arrays through these, nothing is copied.
  readonly #runs: { ids: readonly string[]; counts: ArrayLike<number> } = { ids: [], counts: [] };
  readonly #values: { ids: readonly string[]; values: ArrayLike<number>; start: ArrayLike<number>; strings: readonly string[] } = { ids: [], values: [], start: [0], strings: [] };
  #paused = false;

  constructor(host: GraphPanelHost, source: string) {
    this.#host = host;
    this.element = document.createElement('section');
    this.element.className = 'flow-graph-panel';
    this.element.setAttribute('aria-label', 'Crate graph');
    const bar = document.createElement('div');
    bar.className = 'flow-graph-bar';
    const apply = button('Apply', 'Compile the edited graph and reload it into every running crate');
    this.#continue = button('Continue', 'Run the paused crate on to its next breakpoint');
    this.#step = button('Step', 'Run one node of the paused crate');
    this.#continue.disabled = true;
    this.#step.disabled = true;
    bar.append(apply, this.#continue, this.#step);
    this.#message = document.createElement('p');
    this.#message.className = 'flow-graph-message';
    this.#message.setAttribute('role', 'status');
    const editorHost = document.createElement('div');
    editorHost.className = 'flow-graph-editor';
    this.element.append(bar, editorHost, this.#message);
    this.document = FlowDocument.fromSource(source, host.registry);
    this.view = new FlowEditorView(editorHost, this.document, { minimap: false, label: 'Crate graph editor' });
    this.view.onBreakpointToggle((id, on) => this.#toggle(id, on));
    apply.addEventListener('click', () => { this.apply(); });
    this.#continue.addEventListener('click', () => { this.#resume('continue'); });
    this.#step.addEventListener('click', () => { this.#resume('step'); });
    this.#setIds(host.program);
    this.#say('Click a crate to watch its graph run. Click the dot on a node’s title (or F9) for a breakpoint.');
  }

  /** Fits the graph in the editor (call once the panel is in the page and has its size). */
  attach(): void {
    this.view.fit();
  }

  /** The crate the panel watches: the last one clicked. Its breakpoints move with it. */
  watch(crate: FlowInstance): void {
    if (crate === this.#watched) return;
    const runtime = this.#host.runtime;
    const old = this.#watched;
    if (old !== undefined) {
      for (const id of this.#breakpoints) runtime.clearBreakpoint(old, id);
      if (runtime.isPaused(old)) runtime.continue(old);
      runtime.unwatch(old);
    }
    this.#watched = crate;
    this.#watch = runtime.watch(crate, { records: 256, values: 2048 });
    for (const id of [...this.#breakpoints]) {
      try {
        runtime.setBreakpoint(crate, id);
      } catch (error) {
        if (!(error instanceof FlowError)) throw error;
        this.#breakpoints.delete(id);
      }
    }
    this.view.setBreakpoints(this.#breakpoints);
    this.#updatePause();
    this.#say(`Watching crate ${crate.unit}.`);
  }

  get watched(): FlowInstance | undefined {
    return this.#watched;
  }

  /** Each frame: the watched crate's runs and pin values to the view, then the watch's frame ends. */
  frame(): void {
    const watch = this.#watch;
    if (watch === undefined) return;
    this.#runs.counts = watch.runs;
    this.#values.values = watch.pinValues;
    this.#values.start = watch.pinStart;
    this.view.setActivity(this.#runs);
    this.view.setPinValues(this.#values);
    watch.clear();
    if (this.#paused !== this.#host.runtime.isPaused(watch.instance)) this.#updatePause();
  }

  /** Compiles the edited graph and reloads it into every crate; a graph with errors is refused, the crates keep the old one. */
  apply(): boolean {
    const host = this.#host;
    const issues = this.document.validation.issues;
    if (issues.length > 0) {
      this.#say(`Not applied: the graph has ${issues.length} issue${issues.length > 1 ? 's' : ''}. ${issues.map((i) => i.message).join(' ')}`, true);
      return false;
    }
    let program: FlowProgram;
    try {
      program = loadFlowProgram(compileFlowGraph(this.document.toSource(), host.registry), host.registry);
    } catch (error) {
      if (!(error instanceof FlowGraphError) && !(error instanceof FlowError)) throw error;
      const list = error instanceof FlowGraphError ? error.issues.map((i) => i.message).join(' ') : error.message;
      this.#say(`Not applied: ${list}`, true);
      return false;
    }
    try {
      const report = host.runtime.reload(host.crates, program);
      this.#setIds(program);
      host.reloaded(program);
      this.#say(`Reloaded ${report.instances} crates: ${report.variablesKept.length} variables kept, ${report.variablesReset.length} reset; ${report.nodesKept} nodes kept their state, ${report.nodesRemoved.length} dropped${report.timersDropped > 0 ? ` (${report.timersDropped} running timers with them)` : ''}.`);
      this.#updatePause();
      return true;
    } catch (error) {
      if (!(error instanceof FlowError)) throw error;
      this.#say(`Not applied: ${error.message}`, true);
      return false;
    }
  }

  destroy(): void {
    this.view.destroy();
    this.element.remove();
  }

  #setIds(program: FlowProgram): void {
    this.#ids = Array.from({ length: program.nodeCount }, (_, i) => program.nodeId(i));
    this.#runs.ids = this.#ids;
    this.#values.ids = this.#ids;
    this.#values.strings = program.strings;
  }

  #toggle(id: string, on: boolean): boolean | undefined {
    const crate = this.#watched;
    if (crate !== undefined) {
      try {
        if (on) this.#host.runtime.setBreakpoint(crate, id);
        else this.#host.runtime.clearBreakpoint(crate, id);
      } catch (error) {
        if (!(error instanceof FlowError)) throw error;
        this.#say(`No breakpoint on ${id}: ${error.message}`, true);
        return false;
      }
    }
    if (on) this.#breakpoints.add(id);
    else this.#breakpoints.delete(id);
    if (crate === undefined) this.#say(`Breakpoint ${on ? 'set' : 'cleared'} on ${id}; it applies to the crate you click.`);
    return undefined;
  }

  #resume(how: 'continue' | 'step'): void {
    const crate = this.#watched;
    if (crate === undefined || !this.#host.runtime.isPaused(crate)) return;
    if (how === 'continue') this.#host.runtime.continue(crate);
    else this.#host.runtime.step(crate);
    this.#updatePause();
  }

  #updatePause(): void {
    const crate = this.#watched;
    const runtime = this.#host.runtime;
    this.#paused = crate !== undefined && runtime.isPaused(crate);
    this.#continue.disabled = !this.#paused;
    this.#step.disabled = !this.#paused;
    if (!this.#paused || crate === undefined) {
      this.view.setPausedAt(undefined);
      return;
    }
    const status = runtime.debugStatus(crate);
    this.view.setPausedAt(status.nodeId === '' ? undefined : status.nodeId);
    this.#say(`Crate ${crate.unit} paused${status.nodeId === '' ? '' : ` before ${status.nodeId}`}; the other crates run on.${status.queued > 0 ? ` ${status.queued} events queued.` : ''}`);
  }

  #say(text: string, refused = false): void {
    this.#message.textContent = text;
    this.#message.classList.toggle('error', refused);
  }
}

// The Flow view: pick a unit that runs a Flow graph, see and edit its graph in a
// @cuttle/flow-editor view, save it (the tool's server writes the source and waits for the
// compiler, then this page sends `reload` and the engine switches the running instances to the
// new graph), and debug the watched instance live: nodes glow as they run, a hovered pin shows
// its last value, breakpoints pause that instance alone until Continue or Step. Everything
// comes from the engine's `flow.*` messages; the view never touches a runtime.
import { FlowDocument, FlowEditorError } from '@cuttle/flow-editor';
import { FlowEditorView, type FlowPinValue } from '@cuttle/flow-editor/view';
import { createEngineFlowRegistry } from './engine-flow-registry.ts';

export interface FlowPanelHost {
  /** Sends a protocol message to the engine (dropped while disconnected). */
  send(message: object): void;
  /** Calls the tool's server API (GET without a body, POST with one). */
  api<T>(path: string, body?: unknown): Promise<T>;
  /** A line in the page's log. */
  log(level: string, text: string): void;
  /** A fresh request id (shared with the page's other `reload`s). */
  nextId(): number;
}

/** What the page shows and tests read. */
export interface FlowPanelState {
  units: { unit: string | null; graph: string }[];
  watching: string | null | undefined;
  graph: string | undefined;
  activity: number;
  breakpoints: string[];
  paused: { node: string | null; why: string } | undefined;
  saves: { ok: boolean; compileMs: number; compiled: string[]; error?: string }[];
  reloads: { ok: boolean; mode?: string; reports: unknown[]; error?: string }[];
  lastRefusal: string | undefined;
  dirty: boolean;
}

interface UnitEntry {
  unit: string | null;
  graph: string;
  kind: string;
  nodes: number;
}

const LEVEL = 'null';

function button(text: string, title: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.title = title;
  return b;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unitLabel(unit: string | null): string {
  return unit ?? 'the level graph';
}

export class FlowPanel {
  readonly state: FlowPanelState = { units: [], watching: undefined, graph: undefined, activity: 0, breakpoints: [], paused: undefined, saves: [], reloads: [], lastRefusal: undefined, dirty: false };
  readonly #host: FlowPanelHost;
  readonly #registry = createEngineFlowRegistry();
  readonly #picker: HTMLSelectElement;
  readonly #save: HTMLButtonElement;
  readonly #continue: HTMLButtonElement;
  readonly #step: HTMLButtonElement;
  readonly #message: HTMLElement;
  readonly #editorHost: HTMLElement;
  /** The last value of each node's data pins, as the engine reports them (kept between reports: the view reads it on hover). */
  readonly #pinValues = new Map<string, FlowPinValue[]>();
  /** Reloads this panel asked for, by request id. */
  readonly #reloads = new Set<number>();
  #doc: FlowDocument | undefined;
  #view: FlowEditorView | undefined;
  #savedVersion = 0;
  #opening = 0;
  #saving = false;

  constructor(element: HTMLElement, host: FlowPanelHost) {
    this.#host = host;
    const bar = document.createElement('div');
    bar.className = 'flow-bar';
    const label = document.createElement('label');
    label.textContent = 'Flow ';
    this.#picker = document.createElement('select');
    this.#picker.id = 'flow-unit';
    this.#picker.setAttribute('aria-label', 'Unit whose Flow graph to watch');
    label.append(this.#picker);
    this.#save = button('Save', 'Write the graph, compile it and reload it into the running instances (Ctrl+S)');
    this.#save.id = 'flow-save';
    this.#continue = button('Continue', 'Let the paused instance run on');
    this.#continue.id = 'flow-continue';
    this.#step = button('Step', 'Run the node it stopped before and stop before the next');
    this.#step.id = 'flow-step';
    this.#save.disabled = true;
    this.#continue.disabled = true;
    this.#step.disabled = true;
    this.#message = document.createElement('span');
    this.#message.id = 'flow-status';
    this.#message.setAttribute('role', 'status');
    bar.append(label, this.#save, this.#continue, this.#step, this.#message);
    this.#editorHost = document.createElement('div');
    this.#editorHost.id = 'flow-editor';
    element.append(bar, this.#editorHost);
    this.#picker.addEventListener('change', () => { this.#watch(); });
    this.#save.addEventListener('click', () => { void this.save(); });
    this.#continue.addEventListener('click', () => { this.#host.send({ type: 'flow', action: 'continue', id: this.#host.nextId() }); });
    this.#step.addEventListener('click', () => { this.#host.send({ type: 'flow', action: 'step', id: this.#host.nextId() }); });
    // Ctrl+S saves the graph wherever the focus is (the browser would save the page).
    window.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's' && this.#doc !== undefined) {
        e.preventDefault();
        void this.save();
      }
    }, { capture: true });
    this.#say('Pick a unit to see its Flow graph.');
  }

  get view(): FlowEditorView | undefined {
    return this.#view;
  }

  get document(): FlowDocument | undefined {
    return this.#doc;
  }

  /** The connection is open: ask which units run Flow graphs (and watch the picked one again). */
  connected(): void {
    this.#host.send({ type: 'flow', action: 'list', id: this.#host.nextId() });
    if (this.state.watching !== undefined) this.#host.send({ type: 'flow', action: 'watch', unit: this.state.watching, id: this.#host.nextId() });
  }

  /** Handles an engine message meant for this panel; returns whether it was one. */
  handle(message: Record<string, unknown>): boolean {
    switch (message.type) {
      case 'flow.units':
        this.#units(message);
        return true;
      case 'flow.watching':
        this.#watching(message);
        return true;
      case 'flow.activity':
        this.#activity(message);
        return true;
      case 'flow.breakpoints':
        if (message.unit === this.state.watching && Array.isArray(message.nodes)) this.#breakpoints(message.nodes.filter((n): n is string => typeof n === 'string'));
        return true;
      case 'flow.paused':
        if (message.unit !== this.state.watching) return true;
        this.#paused({ node: typeof message.node === 'string' ? message.node : null, why: String(message.why) });
        return true;
      case 'flow.resumed':
        if (message.unit !== this.state.watching) return true;
        this.#paused(undefined);
        this.#say(message.stepping === true ? `${unitLabel(this.state.watching ?? null)}: stepping…` : `${unitLabel(this.state.watching ?? null)} runs on.`);
        return true;
      case 'reloaded':
        if (typeof message.id !== 'number' || !this.#reloads.delete(message.id)) return false;
        this.#reloaded(message);
        return false; // the page logs it too
      case 'error':
        if (message.inReplyTo !== 'flow') return false;
        this.#refused(`${String(message.action)}: ${String(message.problem)}`);
        if (message.action === 'breakpoint') this.#view?.setBreakpoints(this.state.breakpoints);
        return true;
      default:
        return false;
    }
  }

  /** Writes the graph through the tool's server (compile), then reloads it in the engine. */
  async save(): Promise<void> {
    const doc = this.#doc;
    const path = this.state.graph;
    if (doc === undefined || path === undefined || this.#saving) return;
    this.#saving = true;
    const version = doc.version;
    const text = doc.toSource();
    this.#say(`Saving ${path}…`);
    try {
      const result = await this.#host.api<{ compiled: string[]; compileMs: number; unchanged?: boolean }>('/api/flow', { path, text });
      this.state.saves.push({ ok: true, compileMs: result.compileMs, compiled: result.compiled });
      this.#savedVersion = version;
      this.#setDirty(doc.version !== this.#savedVersion);
      if (result.unchanged === true || result.compiled.length === 0) {
        this.#say(`${path}: nothing changed.`);
        return;
      }
      const id = this.#host.nextId();
      this.#reloads.add(id);
      this.#host.send({ type: 'reload', id, resources: result.compiled });
      this.#say(`${path} compiled in ${result.compileMs.toFixed(0)} ms (${result.compiled.join(', ')}); reloading…`);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.state.saves.push({ ok: false, compileMs: 0, compiled: [], error: text });
      this.#refused(`Not saved or not compiled: ${text}`);
      this.#host.log('error', `flow save: ${text}`);
    } finally {
      this.#saving = false;
    }
  }

  #units(message: Record<string, unknown>): void {
    const list = Array.isArray(message.units) ? message.units : [];
    const units: UnitEntry[] = [];
    for (const u of list) {
      if (!isRecord(u) || (u.unit !== null && typeof u.unit !== 'string') || typeof u.graph !== 'string') continue;
      units.push({ unit: u.unit, graph: u.graph, kind: String(u.kind), nodes: Number(u.nodes) });
    }
    this.state.units = units.map((u) => ({ unit: u.unit, graph: u.graph }));
    const current = this.#picker.value;
    const placeholder = document.createElement('option');
    placeholder.value = '';
    placeholder.textContent = 'pick a unit…';
    placeholder.disabled = true;
    this.#picker.replaceChildren(
      placeholder,
      ...units.map((u) => {
        const option = document.createElement('option');
        option.value = u.unit === null ? LEVEL : JSON.stringify(u.unit);
        option.textContent = `${unitLabel(u.unit)} · ${u.graph} (${u.nodes} nodes)`;
        return option;
      }),
    );
    this.#picker.value = current;
    if (this.#picker.value !== current || current === '') this.#picker.value = '';
  }

  #watch(): void {
    const value = this.#picker.value;
    if (value === '') return;
    const unit = JSON.parse(value) as string | null;
    if (this.#doc !== undefined && this.state.dirty) this.#host.log('warning', `flow: unsaved changes to ${this.state.graph} were left`);
    this.#host.send({ type: 'flow', action: 'watch', unit, id: this.#host.nextId() });
  }

  #watching(message: Record<string, unknown>): void {
    if (message.watching !== true) {
      if (message.unit === this.state.watching) {
        this.state.watching = undefined;
        this.#paused(undefined);
        this.#pinValues.clear();
        this.#view?.setPinValues(undefined);
        this.#say(`Not watching: ${String(message.reason)}`);
      }
      return;
    }
    const unit = typeof message.unit === 'string' ? message.unit : null;
    const graph = String(message.graph);
    const fresh = this.state.watching !== unit || this.state.graph !== graph;
    this.state.watching = unit;
    this.#picker.value = unit === null ? LEVEL : JSON.stringify(unit);
    this.#pinValues.clear();
    const breakpoints = Array.isArray(message.breakpoints) ? message.breakpoints.filter((n): n is string => typeof n === 'string') : [];
    const paused = isRecord(message.paused) ? { node: typeof message.paused.node === 'string' ? message.paused.node : null, why: String(message.paused.why) } : undefined;
    const apply = (): void => {
      this.#breakpoints(breakpoints);
      this.#paused(paused);
      this.#view?.setPinValues(this.#pinValues);
    };
    // A reload of the graph this page saved: the document is what the engine runs now.
    if (!fresh && this.#doc !== undefined) {
      apply();
      if (typeof message.reason === 'string') this.#say(`Watching ${unitLabel(unit)}: ${message.reason}.`);
      return;
    }
    const opening = ++this.#opening;
    void this.#host.api<{ text: string }>(`/api/flow?path=${encodeURIComponent(graph)}`).then(
      ({ text }) => {
        if (opening !== this.#opening) return;
        this.#open(graph, text);
        apply();
        this.#say(`Watching ${unitLabel(unit)} (${graph}). Space adds a node; drag pin to pin to link; the dot left of a title (or F9) sets a breakpoint; Ctrl+S saves.`);
      },
      (error: unknown) => {
        if (opening === this.#opening) this.#refused(`Cannot open ${graph}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  #open(graph: string, text: string): void {
    this.#view?.destroy();
    this.#view = undefined;
    let doc: FlowDocument;
    try {
      doc = FlowDocument.fromSource(text, this.#registry);
    } catch (error) {
      if (!(error instanceof FlowEditorError)) throw error;
      this.#doc = undefined;
      this.state.graph = undefined;
      this.#refused(`Cannot open ${graph}: ${error.message}`);
      return;
    }
    this.#doc = doc;
    this.state.graph = graph;
    this.#savedVersion = doc.version;
    this.#setDirty(false);
    this.#save.disabled = false;
    doc.onChange(() => { this.#setDirty(doc.version !== this.#savedVersion); });
    const view = new FlowEditorView(this.#editorHost, doc, { minimap: false, label: `Flow graph ${graph}` });
    view.onBreakpointToggle((id, on) => {
      if (this.state.watching === undefined) return false;
      this.#host.send({ type: 'flow', action: 'breakpoint', node: id, on, id: this.#host.nextId() });
      return undefined;
    });
    this.#view = view;
    view.fit();
  }

  #activity(message: Record<string, unknown>): void {
    const view = this.#view;
    if (message.unit !== this.state.watching || view === undefined) return;
    this.state.activity++;
    const runs = new Map<string, number>();
    if (Array.isArray(message.ran)) {
      for (const entry of message.ran) {
        if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') runs.set(entry[0], entry[1]);
      }
    }
    if (isRecord(message.values)) {
      for (const [id, values] of Object.entries(message.values)) {
        if (Array.isArray(values)) this.#pinValues.set(id, values.map((v: unknown) => (typeof v === 'number' || typeof v === 'string' ? v : null)));
      }
    }
    view.setActivity(runs);
    view.setPinValues(this.#pinValues);
  }

  #breakpoints(nodes: string[]): void {
    this.state.breakpoints = nodes;
    this.#view?.setBreakpoints(nodes);
  }

  #paused(paused: { node: string | null; why: string } | undefined): void {
    this.state.paused = paused;
    this.#continue.disabled = paused === undefined;
    this.#step.disabled = paused === undefined;
    this.#view?.setPausedAt(paused?.node ?? undefined);
    if (paused !== undefined) this.#say(`${unitLabel(this.state.watching ?? null)} paused${paused.node === null ? '' : ` before ${paused.node}`} (${paused.why}); the rest of the engine runs on. Continue or Step.`);
  }

  #reloaded(message: Record<string, unknown>): void {
    if (message.ok !== true) {
      const error = String(message.error);
      this.state.reloads.push({ ok: false, reports: [], error });
      this.#refused(`The engine kept the old graph: ${error}`);
      return;
    }
    const reports = Array.isArray(message.flow) ? message.flow : [];
    this.state.reloads.push({ ok: true, mode: String(message.mode), reports });
    const words = reports
      .filter(isRecord)
      .map((r) => {
        const report = isRecord(r.report) ? r.report : undefined;
        if (!report) return `${String(r.graph)}: reloaded`;
        const kept = Array.isArray(report.variablesKept) ? report.variablesKept.length : 0;
        return `${String(r.graph)}: ${String(report.instances)} instances switched, ${kept} variables kept, ${String(report.nodesKept)} nodes kept their state`;
      });
    this.#say(`Reloaded (${String(message.mode)}). ${words.join('; ')}`);
  }

  #setDirty(dirty: boolean): void {
    this.state.dirty = dirty;
    this.#save.textContent = dirty ? 'Save*' : 'Save';
  }

  #say(text: string): void {
    this.#message.textContent = text;
    this.#message.classList.remove('refused');
  }

  #refused(text: string): void {
    this.state.lastRefusal = text;
    this.#message.textContent = text;
    this.#message.classList.add('refused');
  }
}

// The Flow graphs of a running world: one FlowRuntime, the programs by graph name, and one
// instance per placed unit with a script (named by the unit's id in the level) plus the level's
// own graph (unit null). Kept apart from World so the debugger and the tests reach it without a
// GPU. Hot reload switches running instances to a recompiled graph with runtime.reload (they keep
// their variables and node state) instead of making new ones.
import { FlowRuntime, type FlowInstance, type FlowProgram, type FlowRegistry, type FlowReloadReport } from '@cuttle/flow';
import { EngineError, FlowUpdateError } from '../errors.ts';
import type { FlowParallelStats, FlowParallelUpdate } from './flow-parallel.ts';

/** A graph as the engine loads it: the program, and its nodes' types when the compiler recorded them. */
export interface LoadedGraph {
  program: FlowProgram;
  /** Node type by node index ('logic/counter', 'action/log', ...); undefined for data compiled before they were recorded. */
  types: readonly string[] | undefined;
}

export type GraphLoader = (name: string) => LoadedGraph;

/** One running Flow instance and what the tools call it. */
export interface FlowTarget {
  /** The placed unit's id in the level (`lamp_03`); null for the level's own graph. */
  readonly unit: string | null;
  /** Graph resource name, e.g. `flow/lamp` (source `flow/lamp.flow`). */
  readonly graph: string;
  readonly instance: FlowInstance;
}

/** What a graph reload did, for the log and the `reloaded` reply. */
export interface FlowGraphReload {
  /** Source path, e.g. `flow/lamp.flow`. */
  graph: string;
  report: FlowReloadReport | null;
}

export interface FlowUnitPlacement {
  unit: string;
  graph: string;
  entity: number;
}

export class FlowScripts {
  readonly runtime: FlowRuntime;
  readonly registry: FlowRegistry;
  readonly targets: readonly FlowTarget[];
  /** Called when an instance pauses (a breakpoint or a step), after the host call let go of it. */
  onPause: ((target: FlowTarget, node: number) => void) | null = null;
  readonly #load: GraphLoader;
  readonly #graphs = new Map<string, LoadedGraph>();
  readonly #byUnit = new Map<string, FlowTarget>();
  readonly #level: FlowTarget | undefined;
  /** The same instances as `targets`, in a plain array for the per-frame loop. */
  readonly #instances: FlowInstance[];
  /** Per instance, 1 when its graph has delays or timers (a reload may change it). */
  readonly #ticks: Uint8Array;
  /** The update across the frame workers, when there are workers. */
  readonly #parallel: FlowParallelUpdate | null;
  /** What update() found failing this frame, one line per instance. */
  readonly #failures: string[] = [];
  #dt = 0;
  #onWorkers = false;
  readonly #updateHere = (index: number): void => {
    try {
      this.runtime.update(this.#instances[index]!, this.#dt);
    } catch (error) {
      this.#fail(index, error instanceof Error ? error.message : String(error));
    }
  };
  readonly #fail = (index: number, message: string): void => {
    const target = this.targets[index]!;
    this.#failures.push(`${target.unit ?? 'the level'} (${target.graph}): ${message}`);
  };

  /**
   * Loads the graphs the units and the level name (throws on the first that fails) and
   * instantiates them; start() fires their first events. With `parallel` (the engine's, shared
   * by its worlds), a frame with enough ticking instances updates them on the frame workers, with
   * the same result.
   */
  constructor(registry: FlowRegistry, load: GraphLoader, units: readonly FlowUnitPlacement[], level: string | undefined, parallel?: FlowParallelUpdate) {
    this.registry = registry;
    this.#load = load;
    this.runtime = new FlowRuntime({ onPause: (instance, node) => { this.onPause?.(this.targets[instance.user]!, node); } });
    const targets: FlowTarget[] = [];
    const add = (unit: string | null, graph: string, entity: number): FlowTarget => {
      const instance = this.#graph(graph).program.instantiate(entity);
      instance.user = targets.length;
      const target = { unit, graph, instance };
      targets.push(target);
      return target;
    };
    if (level !== undefined) this.#level = add(null, level, -1);
    for (const placed of units) this.#byUnit.set(placed.unit, add(placed.unit, placed.graph, placed.entity));
    this.targets = targets;
    this.#instances = targets.map((t) => t.instance);
    this.#ticks = new Uint8Array(targets.length);
    this.#noteTicks();
    this.#parallel = parallel ?? null;
    this.#parallel?.layout(this.#instances, registry);
  }

  /** Whether the last update() went to the frame workers. */
  get updatedOnWorkers(): boolean {
    return this.#onWorkers;
  }

  /** What the last update() did on the frame workers; null without workers. */
  get workerStats(): Readonly<FlowParallelStats> | null {
    return this.#parallel?.last ?? null;
  }

  #noteTicks(): void {
    const instances = this.#instances;
    for (let i = 0; i < instances.length; i++) this.#ticks[i] = instances[i]!.program.tickNodes > 0 ? 1 : 0;
  }

  #graph(name: string): LoadedGraph {
    let graph = this.#graphs.get(name);
    if (!graph) {
      graph = this.#load(name);
      this.#graphs.set(name, graph);
    }
    return graph;
  }

  /** Fires unit_spawned into every unit's instance, then level_loaded into the level's. */
  start(): void {
    for (const target of this.targets) if (target.unit !== null) this.runtime.unitSpawned(target.instance);
    if (this.#level) this.runtime.levelLoaded(this.#level.instance);
  }

  /**
   * Advances every instance's delays and timers (a paused one stands still). Instances whose
   * graph has neither are skipped unless the debugger holds them (their update would do
   * nothing): a level of 10,000 lamps with no timers costs a pass over a byte array. An instance
   * whose update fails (an event loop, say) does not stop the others: after all of them have
   * run, this throws a FlowUpdateError naming every one that failed.
   */
  update(dt: number): void {
    this.#dt = dt;
    this.#failures.length = 0;
    const instances = this.#instances;
    const ticks = this.#ticks;
    this.#onWorkers = this.#parallel?.update(dt, instances, ticks, this.runtime, this.#updateHere, this.#fail) ?? false;
    if (!this.#onWorkers) {
      for (let i = 0; i < instances.length; i++) if (ticks[i] !== 0 || instances[i]!.debug !== null) this.#updateHere(i);
    }
    const failures = this.#failures;
    if (failures.length > 0) throw new FlowUpdateError(`The Flow update failed in ${failures.length} instance${failures.length > 1 ? 's' : ''}: ${failures.slice(0, 3).join('; ')}${failures.length > 3 ? '; ...' : ''}`);
  }

  /** The instance of placed unit `unit`, or of the level's graph for null. */
  find(unit: string | null): FlowTarget | undefined {
    return unit === null ? this.#level : this.#byUnit.get(unit);
  }

  /** Node types of a loaded graph (by node index), if the compiler recorded them. */
  types(graph: string): readonly string[] | undefined {
    return this.#graphs.get(graph)?.types;
  }

  /**
   * Switches the running instances of each named graph (`flow/lamp`) to its recompiled program,
   * keeping their variables and node state. Every graph is loaded and checked first: on failure
   * this throws and nothing has changed. Graphs no instance runs are only loaded (so a broken one
   * still fails).
   */
  reload(names: readonly string[]): FlowGraphReload[] {
    const next = names.map((name) => ({ name, loaded: this.#load(name) }));
    for (const { name, loaded } of next) {
      const old = this.#graphs.get(name);
      if (old && old.program.kind !== loaded.program.kind) throw new EngineError(`${name}.flow changed from a ${old.program.kind} graph to a ${loaded.program.kind} graph; its instances cannot switch. Reload the level instead.`);
    }
    try {
      return next.map(({ name, loaded }) => {
        const instances = this.#instances.filter((i) => this.targets[i.user]!.graph === name);
        const report = instances.length > 0 ? this.runtime.reload(instances, loaded.program) : null;
        if (this.#graphs.has(name) || instances.length > 0) this.#graphs.set(name, loaded);
        return { graph: `${name}.flow`, report };
      });
    } finally {
      // Reloaded instances have new programs and new state arrays.
      this.#noteTicks();
      this.#parallel?.layout(this.#instances, this.registry);
    }
  }
}

/** One line for the log: what a graph reload kept, reset and dropped. */
export function describeFlowReload({ graph, report }: FlowGraphReload): string {
  if (!report) return `${graph}: no running instance`;
  const list = (names: string[]): string => (names.length === 0 ? 'none' : names.join(', '));
  return `${graph}: ${report.instances} instance${report.instances === 1 ? '' : 's'} switched; variables kept: ${list(report.variablesKept)}; reset: ${list(report.variablesReset)}; nodes kept: ${report.nodesKept}; removed: ${list(report.nodesRemoved)}; timers dropped: ${report.timersDropped}; paused work dropped: ${report.pausedWorkDropped}`;
}

// The Flow update across the frame workers. Every instance's state lives in one shared arena and
// every program's bytes in one shared blob; a Dispatch of `updateFlow` (parallel/flow-kernel.ts)
// updates runs of instances on the workers, each recording its actions; then this thread walks
// the instances in order, replaying each one's actions and updating here the ones the workers did
// not take (debugged ones, graphs whose actions have outputs, and any a worker gave back). The
// engine's actions only write to the world, so this is the frame one thread would have made.
import { FlowActionRecorder, FlowActionReplay, type FlowInstance, type FlowProgram, type FlowRegistry, type FlowRuntime } from '@cuttle/flow';
import type { JobSystem } from '@cuttle/jobs';
import { EngineError } from '../errors.ts';
import { INSTANCE_INTS, JOB_RESULT_FLOATS, JobResult, Param, PARAM_FLOATS, PROGRAM_INTS } from './parallel/flow-layout.ts';
import { sharedAtLeast } from './parallel/shared-arrays.ts';

export interface FlowParallelOptions {
  /** Ticking instances a frame must have before its update goes to the workers (default 8,192: on the H200 host 3,000 flickering lamps lost on 8 and 16 threads, 10,000 gained). */
  minInstances?: number;
  /** Floats of action records each job may write (default 4,096); an update that overflows runs on the main thread. */
  tapeFloats?: number;
  /**
   * Fewest ticking instances a job gets (default 64). A Dispatch wakes a worker for each job, so
   * a larger floor keeps small updates on fewer threads.
   */
  minPerJob?: number;
}

/** Fewest instances a job gets by default, so that a job's cost stays above the cost of handing it out. */
const MIN_PER_JOB = 64;

/** What the last update() did on the workers. */
export interface FlowParallelStats {
  /** Instances handed to the workers (0: the update stayed on the main thread). */
  instances: number;
  /** Jobs they were cut into. */
  jobs: number;
  /** Instances the workers gave back (their actions did not fit a job's tape), updated on the main thread. */
  handedBack: number;
}

export class FlowParallelUpdate {
  readonly minInstances: number;
  readonly tapeFloats: number;
  readonly minPerJob: number;
  /** What the last update() did. */
  readonly last: FlowParallelStats = { instances: 0, jobs: 0, handedBack: 0 };
  readonly #jobs: JobSystem;
  #replay: FlowActionReplay | null = null;
  /** The instances laid out now (one FlowScripts' list): another list's update stays on its thread. */
  #laidOut: readonly FlowInstance[] | null = null;
  readonly #maxJobs: number;
  readonly #tape: Float64Array;
  readonly #results: Float64Array;
  readonly #params = new Float64Array(new SharedArrayBuffer(PARAM_FLOATS * 8));
  #programBytes: Uint8Array | undefined;
  #programTable: Int32Array | undefined;
  #instanceTable: Int32Array | undefined;
  #states: Float64Array | undefined;
  #order: Int32Array | undefined;
  /** Instances this thread updates itself (debugged, or calling actions with outputs), in order. */
  #here: Int32Array | undefined;
  /** Per instance, 1 when every action its graph calls can be recorded. */
  #recordable = new Uint8Array(0);
  #programCount = 0;
  #instanceCount = 0;
  #stateSlots = 0;
  /** The split of the last update (order and here), kept while no instance is debugged. */
  #orderCount = 0;
  #hereCount = 0;
  #splitKept = false;
  /** Changes with every layout: the workers remake their programs and instances when it does. */
  #generation = 0;

  constructor(jobs: JobSystem, options: FlowParallelOptions = {}) {
    const minInstances = options.minInstances ?? 8192;
    const tapeFloats = options.tapeFloats ?? 4096;
    const minPerJob = options.minPerJob ?? MIN_PER_JOB;
    if (!(Number.isInteger(minInstances) && minInstances >= 1)) throw new EngineError(`minInstances must be a whole number of at least 1, got ${minInstances}.`);
    if (!(Number.isInteger(tapeFloats) && tapeFloats >= 4)) throw new EngineError(`tapeFloats must be a whole number of at least 4, got ${tapeFloats}.`);
    if (!(Number.isInteger(minPerJob) && minPerJob >= 1)) throw new EngineError(`minPerJob must be a whole number of at least 1, got ${minPerJob}.`);
    this.minInstances = minInstances;
    this.tapeFloats = tapeFloats;
    this.minPerJob = minPerJob;
    this.#jobs = jobs;
    this.#maxJobs = (jobs.workerCount + 1) * 4;
    this.#tape = new Float64Array(new SharedArrayBuffer(this.#maxJobs * tapeFloats * 8));
    this.#results = new Float64Array(new SharedArrayBuffer(this.#maxJobs * JOB_RESULT_FLOATS * 8));
  }

  /**
   * Shares the instances' programs and moves their states into the shared arena; call after the
   * instances are made and after every reload (which gives instances new programs and states).
   * `registry` is theirs, with the actions the replay runs. The buffers grow and are reused, by
   * reloads and by the next world alike (workers keep every buffer they are sent): the instances
   * laid out before, when they are another list, get their states back in arrays of their own
   * and update on the main thread from then on.
   */
  layout(instances: readonly FlowInstance[], registry: FlowRegistry): void {
    const previous = this.#laidOut;
    if (previous !== null && previous !== instances) {
      for (const instance of previous) if (instance.state.buffer === this.#states!.buffer) instance.placeState(new Float64Array(instance.state.length));
    }
    this.#laidOut = instances;
    this.#replay = new FlowActionReplay(registry);
    const recorder = new FlowActionRecorder(registry);
    const programs: FlowProgram[] = [];
    const programIndex = new Map<FlowProgram, number>();
    let bytes = 0;
    let slots = 0;
    for (const instance of instances) {
      const program = instance.program;
      if (!programIndex.has(program)) {
        programIndex.set(program, programs.length);
        programs.push(program);
        bytes += (program.words.byteLength + program.template.byteLength + 7) & ~7;
      }
      slots += program.template.length;
    }
    this.#programBytes = sharedAtLeast(this.#jobs, this.#programBytes, bytes, Uint8Array);
    this.#programTable = sharedAtLeast(this.#jobs, this.#programTable, programs.length * PROGRAM_INTS, Int32Array);
    this.#instanceTable = sharedAtLeast(this.#jobs, this.#instanceTable, instances.length * INSTANCE_INTS, Int32Array);
    this.#states = sharedAtLeast(this.#jobs, this.#states, slots, Float64Array);
    this.#order = sharedAtLeast(this.#jobs, this.#order, instances.length, Int32Array);
    if ((this.#here?.length ?? -1) < instances.length) this.#here = new Int32Array(instances.length);
    let at = 0;
    programs.forEach((program, p) => {
      // The file as loadFlowProgram reads it: the static blob, then the dynamic template.
      const blob = new Uint8Array(program.words.buffer, program.words.byteOffset, program.words.byteLength);
      const template = new Uint8Array(program.template.buffer, program.template.byteOffset, program.template.byteLength);
      this.#programBytes!.set(blob, at);
      this.#programBytes!.set(template, at + blob.length);
      this.#programTable![p * PROGRAM_INTS] = at;
      this.#programTable![p * PROGRAM_INTS + 1] = blob.length + template.length;
      at += (blob.length + template.length + 7) & ~7;
    });
    // A new layout may overlap the old one in a reused arena: copy every state still on it out first.
    for (const instance of instances) if (instance.state.buffer === this.#states.buffer) instance.placeState(new Float64Array(instance.state.length));
    const recordable = new Uint8Array(instances.length);
    let offset = 0;
    instances.forEach((instance, i) => {
      const length = instance.program.template.length;
      const row = i * INSTANCE_INTS;
      this.#instanceTable![row] = programIndex.get(instance.program)!;
      this.#instanceTable![row + 1] = offset;
      this.#instanceTable![row + 2] = length;
      this.#instanceTable![row + 3] = instance.unit;
      instance.placeState(this.#states!.subarray(offset, offset + length));
      recordable[i] = recorder.canRecord(instance.program) ? 1 : 0;
      offset += length;
    });
    this.#recordable = recordable;
    this.#programCount = programs.length;
    this.#instanceCount = instances.length;
    this.#stateSlots = slots;
    this.#generation++;
    this.#splitKept = false;
  }

  /**
   * Updates by `dt` every instance `ticks` marks or the debugger holds, in order, as one thread
   * would (`ticks` may change only with a new layout): the workers take the ticking instances nobody debugs, `updateHere(i)` the rest. A
   * worker's failed update reaches `onError(i, message)` in its place in the order. Returns false,
   * having done nothing, when fewer than `minInstances` instances would go to the workers or when
   * `instances` are not the ones laid out last.
   */
  update(dt: number, instances: readonly FlowInstance[], ticks: Uint8Array, runtime: FlowRuntime, updateHere: (index: number) => void, onError: (index: number, message: string) => void): boolean {
    if (instances !== this.#laidOut) return false;
    const order = this.#order!;
    const here = this.#here!;
    // Which instances go where changes with a layout or with debugging: while nothing is
    // debugged, last frame's split holds and no instance needs a look.
    const debugged = runtime.debuggedInstances;
    if (debugged > 0 || !this.#splitKept) {
      const recordable = this.#recordable;
      let count = 0;
      let hereCount = 0;
      for (let i = 0; i < instances.length; i++) {
        const free = debugged === 0 || instances[i]!.debug === null;
        if (ticks[i] === 0 && free) continue;
        if (recordable[i] !== 0 && free) order[count++] = i;
        else here[hereCount++] = i;
      }
      this.#orderCount = count;
      this.#hereCount = hereCount;
      this.#splitKept = debugged === 0;
    }
    const count = this.#orderCount;
    const hereCount = this.#hereCount;
    const last = this.last;
    last.instances = 0;
    last.jobs = 0;
    last.handedBack = 0;
    if (count < this.minInstances) return false;
    const jobCount = Math.min(this.#maxJobs, Math.ceil(count / this.minPerJob));
    const chunk = Math.ceil(count / jobCount);
    const dispatched = Math.ceil(count / chunk);
    const tape = this.#tape;
    const results = this.#results;
    const tapeFloats = this.tapeFloats;
    const params = this.#params;
    params[Param.orderCount] = count;
    params[Param.chunk] = chunk;
    params[Param.dt] = dt;
    params[Param.tapeFloats] = tapeFloats;
    params[Param.maxSteps] = runtime.maxStepsPerCall;
    params[Param.stackSize] = runtime.stackSize;
    params[Param.generation] = this.#generation;
    this.#jobs.dispatch(
      dispatched,
      1,
      'updateFlow',
      this.#programBytes!,
      this.#programTable!.subarray(0, this.#programCount * PROGRAM_INTS),
      this.#instanceTable!.subarray(0, this.#instanceCount * INSTANCE_INTS),
      this.#states!.subarray(0, this.#stateSlots),
      order,
      tape,
      results,
      params,
    );
    this.#jobs.wait();
    // The records are in instance order within a job, and the jobs in order: walk them, running
    // the instances this thread updates (and those a job gave back) in their places between them.
    // Instances without records have no effect outside their own state, so they need no visit.
    const replay = this.#replay!;
    let h = 0;
    for (let job = 0; job < dispatched; job++) {
      const result = job * JOB_RESULT_FLOATS;
      const end = results[result + JobResult.end]!;
      let at = job * tapeFloats;
      while (at < end) {
        const user = tape[at]!;
        while (h < hereCount && here[h]! < user) updateHere(here[h++]!);
        at = replay.run(tape, at, end, user, instances[user]!, onError);
      }
      const stop = results[result + JobResult.stop]!;
      if (stop >= 0) {
        const jobEnd = Math.min((job + 1) * chunk, count);
        for (let k = stop; k < jobEnd; k++) {
          const index = order[k]!;
          while (h < hereCount && here[h]! < index) updateHere(here[h++]!);
          updateHere(index);
          last.handedBack++;
        }
      }
    }
    while (h < hereCount) updateHere(here[h++]!);
    last.instances = count;
    last.jobs = dispatched;
    for (let job = 0; job < dispatched; job++) {
      runtime.executions += results[job * JOB_RESULT_FLOATS + JobResult.executions]!;
      runtime.peakStack = Math.max(runtime.peakStack, results[job * JOB_RESULT_FLOATS + JobResult.peakStack]!);
    }
    return true;
  }
}

// The Flow update on a frame worker: one job updates a run of instances whose state lives in
// shared memory, with actions recorded into the job's region of the tape for the main thread to
// replay in instance order (FlowParallelUpdate). An update that does not fit the region is undone
// and left, with the rest of the job's run, to the main thread, so nothing is lost or run twice.
import { FlowActionRecorder, FlowRuntime, FlowTapeFullError, loadFlowProgram, type FlowInstance, type FlowProgram } from '@cuttle/flow';
import type { JobDispatchArgs } from '@cuttle/jobs';
import { createFlowRegistry } from '../flow-actions.ts';
import { INSTANCE_INTS, JOB_RESULT_FLOATS, JobResult, Param, PROGRAM_INTS } from './flow-layout.ts';

/** What one thread keeps for one layout (the layout's states buffer and generation name it). */
interface FlowSide {
  generation: number;
  recorder: FlowActionRecorder;
  runtime: FlowRuntime;
  programs: FlowProgram[];
  /** Instances over the shared states, made the first time this thread updates each. */
  instances: (FlowInstance | undefined)[];
  /** The states the job's instances span, before the job: to undo an update whose records do not fit. */
  before: Float64Array;
}

const sides = new WeakMap<ArrayBufferLike, FlowSide>();

function sideOf(programBytes: Uint8Array, programTable: Int32Array, instanceCount: number, states: Float64Array, params: Float64Array): FlowSide {
  const generation = params[Param.generation]!;
  let side = sides.get(states.buffer);
  if (side?.generation === generation) return side;
  // The recorder's registry defines the engine's actions in the same order as the main thread's.
  const recorder = new FlowActionRecorder(createFlowRegistry());
  const programs: FlowProgram[] = [];
  for (let p = 0; p < programTable.length / PROGRAM_INTS; p++) {
    const offset = programTable[p * PROGRAM_INTS]!;
    // A private copy: the loader decodes the string table, and TextDecoder refuses shared memory.
    const program = loadFlowProgram(programBytes.slice(offset, offset + programTable[p * PROGRAM_INTS + 1]!), recorder.registry);
    programs.push(program);
  }
  side = { generation, recorder, runtime: new FlowRuntime({ maxStepsPerCall: params[Param.maxSteps]!, stackSize: params[Param.stackSize]! }), programs, instances: new Array<FlowInstance | undefined>(instanceCount), before: new Float64Array(0) };
  sides.set(states.buffer, side);
  return side;
}

function instanceOf(side: FlowSide, instanceTable: Int32Array, states: Float64Array, index: number): FlowInstance {
  let instance = side.instances[index];
  if (instance) return instance;
  const row = index * INSTANCE_INTS;
  const offset = instanceTable[row + 1]!;
  instance = side.programs[instanceTable[row]!]!.instanceOver(states.subarray(offset, offset + instanceTable[row + 2]!), instanceTable[row + 3]);
  instance.user = index;
  side.instances[index] = instance;
  return instance;
}

/**
 * Job `job.jobIndex` updates the instances `order[jobIndex * chunk ..]` (at most `chunk`, fewer at
 * the end of the order) by `dt`, records their actions into `tape[jobIndex * tapeFloats ..]` and
 * writes what it did into `results` (JOB_RESULT_FLOATS per job). `params` holds the numbers
 * (`Param`).
 */
export function updateFlow(
  job: JobDispatchArgs,
  programBytes: Uint8Array,
  programTable: Int32Array,
  instanceTable: Int32Array,
  states: Float64Array,
  order: Int32Array,
  tape: Float64Array,
  results: Float64Array,
  params: Float64Array,
): void {
  const chunk = params[Param.chunk]!;
  const tapeFloats = params[Param.tapeFloats]!;
  const dt = params[Param.dt]!;
  const side = sideOf(programBytes, programTable, instanceTable.length / INSTANCE_INTS, states, params);
  const { recorder, runtime } = side;
  const first = job.jobIndex * chunk;
  const end = Math.min(first + chunk, params[Param.orderCount]!);
  // One copy of the states the job spans (the arena keeps instances in order), not one per instance.
  const low = instanceTable[order[first]! * INSTANCE_INTS + 1]!;
  const lastRow = order[end - 1]! * INSTANCE_INTS;
  const high = instanceTable[lastRow + 1]! + instanceTable[lastRow + 2]!;
  if (side.before.length < high - low) side.before = new Float64Array(high - low);
  side.before.set(states.subarray(low, high));
  recorder.begin(tape, job.jobIndex * tapeFloats, (job.jobIndex + 1) * tapeFloats);
  runtime.executions = 0;
  runtime.peakStack = 0;
  let stop = -1;
  for (let k = first; k < end; k++) {
    const index = order[k]!;
    const instance = instanceOf(side, instanceTable, states, index);
    const mark = recorder.position;
    const executions = runtime.executions;
    try {
      runtime.update(instance, dt);
    } catch (error) {
      // A graph that fails keeps what it did before it failed, as on one thread; the main thread
      // learns of it in instance order. A record that does not fit sends the update back.
      if (!(error instanceof FlowTapeFullError) && recordError(recorder, index, error)) continue;
      const offset = instanceTable[index * INSTANCE_INTS + 1]! - low;
      instance.state.set(side.before.subarray(offset, offset + instance.state.length));
      recorder.rewind(mark);
      runtime.executions = executions;
      stop = k;
      break;
    }
  }
  const r = job.jobIndex * JOB_RESULT_FLOATS;
  results[r + JobResult.end] = recorder.position;
  results[r + JobResult.stop] = stop;
  results[r + JobResult.executions] = runtime.executions;
  results[r + JobResult.peakStack] = runtime.peakStack;
}

/** Records the failure; false when even that does not fit. */
function recordError(recorder: FlowActionRecorder, index: number, error: unknown): boolean {
  try {
    recorder.recordError(index, error instanceof Error ? error.message : String(error));
    return true;
  } catch (full) {
    if (full instanceof FlowTapeFullError) return false;
    throw full;
  }
}

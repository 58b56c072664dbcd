// The shared layout of the Flow update on frame workers, which flow-kernel.ts (workers) and
// flow-parallel.ts (main thread) both read.

/** Ints per program in the program table: byte offset in the program bytes, byte length. */
export const PROGRAM_INTS = 2;
/** Ints per instance in the instance table: program index, state offset, state length, unit. */
export const INSTANCE_INTS = 4;
/** Floats per job in the results. */
export const JOB_RESULT_FLOATS = 4;

/** Where each of a job's results sits. */
export const JobResult = {
  /** The tape position after the job's records. */
  end: 0,
  /** The first position in `order` the job gave back to the main thread, or -1. */
  stop: 1,
  /** Node executions of the updates the job kept. */
  executions: 2,
  /** The job's deepest pending-event stack. */
  peakStack: 3,
} as const;

/** The numbers of one update, in one shared Float64Array (a kernel takes at most 8 arguments). */
export const Param = {
  /** Instances in `order`. */
  orderCount: 0,
  /** Instances a job takes from `order`. */
  chunk: 1,
  dt: 2,
  /** Floats of tape each job owns. */
  tapeFloats: 3,
  /** The main thread's runtime's limits, so that a runaway graph fails alike on every thread. */
  maxSteps: 4,
  stackSize: 5,
  /** Changes with every layout (a reload): workers remake their programs and instances. */
  generation: 6,
} as const;
export const PARAM_FLOATS = 7;

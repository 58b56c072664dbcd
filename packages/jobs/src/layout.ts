// The shared-memory layout every thread agrees on: one SharedArrayBuffer holds the header
// (lock, sequence counters for wake-ups), one slot per worker, and a fixed table of records.
// A record is a Dispatch, an Execute or a task: BitSquid's POD task struct, linked into
// queues by index so nothing in shared memory needs allocation.

/** Int32 indices of the header. */
export const H = {
  LOCK: 0,
  /** Bumped when work becomes ready; sleeping workers Atomics.wait on it. */
  WORK_SEQ: 1,
  SLEEPERS: 2,
  SHUTDOWN: 3,
  /** Bumped when a record completes, fails or a worker dies; waiting main threads wait on it. */
  EVENT_SEQ: 4,
  MAIN_WAITING: 5,
  /** Records submitted and not completed (IsBusy). */
  PENDING: 6,
  /** Errors reported by workers so far (each also travels as a message). */
  ERRORS: 7,
  FREE_HEAD: 8,
  /** Records in the ready queues. */
  READY_COUNT: 9,
  /** Ready queue heads, one per priority level, then tails. */
  READY_HEAD: 10,
  READY_TAIL: 13,
  /** Records in the high and low queues: what a helping main thread may take. */
  READY_HELPABLE: 16,
  /** Who holds LOCK: a worker's slot + 1, or 0 (the main thread, or nobody). */
  LOCK_OWNER: 17,
  SIZE: 20,
} as const;

export const PRIORITY_LEVELS = 3;
export const PRIORITY_INDEX = { high: 0, low: 1, streaming: 2 } as const;

export const MAX_WORKERS = 256;
/**
 * Per worker: the record and group it is running (-1 when idle), the first and end group of
 * the claim that group belongs to; the serial of the worker now in the slot (each spawn takes
 * a new one), the serial of the last worker of the slot that died (0: none), its exit code, and
 * why it died (DEATH).
 */
export const SLOT = { RECORD: 0, GROUP: 1, BATCH_FIRST: 2, BATCH_END: 3, DEAD: 4, EXIT_CODE: 5, SERIAL: 6, REASON: 7, SIZE: 8 } as const;

/** Why a worker died, as far as the thread that saw it could tell. */
export const DEATH = { UNKNOWN: 0, EXIT: 1, OUT_OF_MEMORY: 2, ERROR: 3 } as const;

/** The most consecutive groups one claim takes (see Scheduler.claim). */
export const MAX_BATCH = 64;
export const SLOTS_BASE = H.SIZE;

export const MAX_ARGS = 8;
/** Per argument: kind, buffer id, byte offset, element count. */
export const ARG_INTS = 4;

/** Int32 fields of a record. */
export const R = {
  STATE: 0,
  /** Generation: bumped on free, so a stale TaskId reads as completed. */
  SERIAL: 1,
  /** Kernel id, or -1 for an empty task (a join point). */
  KERNEL: 2,
  /** 0: execute (kernel(...args)); 1: dispatch (kernel(jobArgs, ...args)). */
  MODE: 3,
  JOB_COUNT: 4,
  GROUP_SIZE: 5,
  GROUP_COUNT: 6,
  NEXT_GROUP: 7,
  GROUPS_DONE: 8,
  PRIORITY: 9,
  /** BitSquid's open_work_items: own work item + open children. */
  OPEN: 10,
  PARENT: 11,
  DEPENDENCY: 12,
  FIRST_DEPENDENT: 13,
  NEXT_DEPENDENT: 14,
  /** Link in a ready queue or the free list. */
  NEXT: 15,
  /** Who created the record: 0 the pool's own thread, a worker's slot + 1 (staged tasks). */
  OWNER: 16,
  ARG_COUNT: 17,
  ARGS: 18,
  SIZE: 18 + MAX_ARGS * ARG_INTS,
} as const;

export const STATE = { FREE: 0, STAGED: 1, WAITING: 2, READY: 3, RUNNING: 4 } as const;
export const MODE = { EXECUTE: 0, DISPATCH: 1 } as const;

export const ARG_KIND = { NUMBER: 1, BUFFER: 2, TYPED_ARRAY: 3 } as const;

/** Where a record's fields start in the Int32 view. */
export function recordBase(slotCount: number, record: number): number {
  return SLOTS_BASE + slotCount * SLOT.SIZE + record * R.SIZE;
}

/** Bytes of the control buffer: Int32 part, then (8-byte aligned) one f64 per argument. */
export function controlLayout(slotCount: number, capacity: number): { int32Count: number; f64Offset: number; bytes: number } {
  const int32Count = SLOTS_BASE + slotCount * SLOT.SIZE + capacity * R.SIZE;
  const f64Offset = Math.ceil((int32Count * 4) / 8) * 8;
  return { int32Count, f64Offset, bytes: f64Offset + capacity * MAX_ARGS * 8 };
}

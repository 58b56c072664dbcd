// The scheduler every thread runs against the same shared memory: a futex-style lock, the
// record table with its free list, three ready queues (one per priority) and BitSquid's
// completion rule (a record completes when its work and all its children are done, then
// releases its dependents and reports to its parent). Plain field access happens under the
// lock; only the counters read outside it use Atomics.
import { H, MAX_BATCH, PRIORITY_LEVELS, R, SLOT, SLOTS_BASE, STATE, controlLayout, recordBase } from './layout.ts';

const LOCK_SPINS = 64;
const STREAMING = PRIORITY_LEVELS - 1;
/** How often a thread blocked on the lock asks `onLockStall` whether its holder died. */
const LOCK_STALL_MS = 100;

export class Scheduler {
  readonly i32: Int32Array;
  readonly f64: Float64Array;
  /** Record, first group and group count of the last successful `claim`. */
  claimedRecord = -1;
  claimedGroup = -1;
  claimedCount = 0;
  /**
   * Called while this thread has waited LOCK_STALL_MS for the lock; may throw (the holder died).
   * Null: wait for the lock without a limit.
   */
  onLockStall: (() => void) | null = null;
  private readonly batchDivisor: number;
  private wakes = 0;
  private events = 0;

  constructor(
    readonly buffer: SharedArrayBuffer,
    readonly slotCount: number,
    readonly capacity: number,
    /** Whether this thread may Atomics.wait (false on a browser main thread). */
    readonly canBlock: boolean,
    /** Who this thread is in LOCK_OWNER and R.OWNER: 0 for the pool's thread, a worker's slot + 1. */
    readonly owner = 0,
  ) {
    const layout = controlLayout(slotCount, capacity);
    this.i32 = new Int32Array(buffer, 0, layout.int32Count);
    this.f64 = new Float64Array(buffer, layout.f64Offset, capacity * 8);
    // Workers plus the main thread, four claims each over what is left.
    this.batchDivisor = (slotCount + 1) * 4;
  }

  /** Writes the empty state: all records free, queues empty. Called once by the creator. */
  format(): void {
    const i32 = this.i32;
    for (let level = 0; level < PRIORITY_LEVELS; level++) {
      i32[H.READY_HEAD + level] = -1;
      i32[H.READY_TAIL + level] = -1;
    }
    for (let slot = 0; slot < this.slotCount; slot++) this.clearSlot(slot);
    for (let record = 0; record < this.capacity; record++) {
      const base = recordBase(this.slotCount, record);
      i32[base + R.STATE] = STATE.FREE;
      i32[base + R.NEXT] = record + 1 < this.capacity ? record + 1 : -1;
    }
    i32[H.FREE_HEAD] = 0;
  }

  base(record: number): number {
    return recordBase(this.slotCount, record);
  }

  slotBase(slot: number): number {
    return SLOTS_BASE + slot * SLOT.SIZE;
  }

  clearSlot(slot: number): void {
    const at = this.slotBase(slot);
    Atomics.store(this.i32, at + SLOT.RECORD, -1);
    Atomics.store(this.i32, at + SLOT.GROUP, -1);
    Atomics.store(this.i32, at + SLOT.BATCH_END, -1);
    Atomics.store(this.i32, at + SLOT.EXIT_CODE, 0);
    Atomics.store(this.i32, at + SLOT.REASON, 0);
  }

  lock(): void {
    const i32 = this.i32;
    let state = Atomics.compareExchange(i32, H.LOCK, 0, 1);
    if (state !== 0) {
      for (let spin = 0; spin < LOCK_SPINS; spin++) {
        if (Atomics.load(i32, H.LOCK) === 0) {
          state = Atomics.compareExchange(i32, H.LOCK, 0, 1);
          if (state === 0) break;
        }
      }
    }
    if (state !== 0) {
      // Drepper's mutex: 2 means "locked, someone may sleep on it".
      if (state !== 2) state = Atomics.exchange(i32, H.LOCK, 2);
      while (state !== 0) {
        if (this.canBlock) {
          const stall = this.onLockStall;
          if (stall === null) Atomics.wait(i32, H.LOCK, 2);
          else if (Atomics.wait(i32, H.LOCK, 2, LOCK_STALL_MS) === 'timed-out') stall();
        }
        state = Atomics.exchange(i32, H.LOCK, 2);
      }
    }
    // Who holds it: a worker that dies holding it leaves its slot number here.
    Atomics.store(i32, H.LOCK_OWNER, this.owner);
  }

  unlock(): void {
    Atomics.store(this.i32, H.LOCK_OWNER, 0);
    if (Atomics.sub(this.i32, H.LOCK, 1) !== 1) {
      Atomics.store(this.i32, H.LOCK, 0);
      Atomics.notify(this.i32, H.LOCK, 1);
    }
  }

  /** Under the lock: takes a free record for this thread, or returns -1 when the table is full. */
  allocate(): number {
    const i32 = this.i32;
    const record = i32[H.FREE_HEAD]!;
    if (record < 0) return -1;
    const base = this.base(record);
    i32[H.FREE_HEAD] = i32[base + R.NEXT]!;
    i32[base + R.STATE] = STATE.STAGED;
    i32[base + R.KERNEL] = -1;
    i32[base + R.NEXT_GROUP] = 0;
    i32[base + R.GROUPS_DONE] = 0;
    i32[base + R.OPEN] = 1;
    i32[base + R.PARENT] = -1;
    i32[base + R.DEPENDENCY] = -1;
    i32[base + R.FIRST_DEPENDENT] = -1;
    i32[base + R.NEXT_DEPENDENT] = -1;
    i32[base + R.NEXT] = -1;
    i32[base + R.ARG_COUNT] = 0;
    i32[base + R.OWNER] = this.owner;
    Atomics.add(i32, H.PENDING, 1);
    return record;
  }

  /** Whether `record` still holds the task with this serial (not completed). */
  isOpen(record: number, serial: number): boolean {
    const base = this.base(record);
    return this.i32[base + R.SERIAL] === serial && this.i32[base + R.STATE] !== STATE.FREE;
  }

  /** Under the lock: `record` may start only after `dependency` completes. */
  linkDependency(record: number, dependency: number, dependencySerial: number): void {
    if (!this.isOpen(dependency, dependencySerial)) return;
    const i32 = this.i32;
    const base = this.base(record);
    const depBase = this.base(dependency);
    i32[base + R.DEPENDENCY] = dependency;
    i32[base + R.NEXT_DEPENDENT] = i32[depBase + R.FIRST_DEPENDENT]!;
    i32[depBase + R.FIRST_DEPENDENT] = record;
  }

  /** Under the lock: `parent` completes only after `child` does (no-op if the child is done). */
  linkChild(parent: number, child: number, childSerial: number): boolean {
    if (!this.isOpen(child, childSerial)) return false;
    const i32 = this.i32;
    const childBase = this.base(child);
    if (i32[childBase + R.PARENT]! >= 0) return false;
    i32[childBase + R.PARENT] = parent;
    i32[this.base(parent) + R.OPEN]! += 1;
    return true;
  }

  /**
   * Under the lock: the tasks a dead thread had staged can never be submitted by it. Each is
   * completed as if it had no work (its parent and dependents go on); returns how many.
   */
  releaseStaged(owner: number): number {
    const i32 = this.i32;
    let released = 0;
    for (let record = 0; record < this.capacity; record++) {
      const base = this.base(record);
      if (i32[base + R.STATE] !== STATE.STAGED || i32[base + R.OWNER] !== owner) continue;
      i32[base + R.KERNEL] = -1;
      i32[base + R.GROUP_COUNT] = 0;
      i32[base + R.OWNER] = 0;
      this.submit(record);
      released++;
    }
    return released;
  }

  /** Under the lock: a staged record goes live (waits for its dependency, or becomes ready). */
  submit(record: number): void {
    const base = this.base(record);
    if (this.i32[base + R.DEPENDENCY]! >= 0) this.i32[base + R.STATE] = STATE.WAITING;
    else this.makeReady(record);
  }

  private makeReady(record: number): void {
    const i32 = this.i32;
    const base = this.base(record);
    if (i32[base + R.KERNEL]! < 0 || i32[base + R.GROUP_COUNT] === 0) {
      i32[base + R.STATE] = STATE.RUNNING;
      this.workDone(record);
      return;
    }
    const level = i32[base + R.PRIORITY]!;
    i32[base + R.STATE] = STATE.READY;
    i32[base + R.NEXT] = -1;
    const tail = i32[H.READY_TAIL + level]!;
    if (tail < 0) i32[H.READY_HEAD + level] = record;
    else i32[this.base(tail) + R.NEXT] = record;
    i32[H.READY_TAIL + level] = record;
    Atomics.add(i32, H.READY_COUNT, 1);
    if (level !== STREAMING) Atomics.add(i32, H.READY_HELPABLE, 1);
    this.wakes += i32[base + R.GROUP_COUNT]!;
  }

  /** Under the lock: one open work item of `record` (its own, or a child) is done. */
  private workDone(record: number): void {
    const i32 = this.i32;
    const base = this.base(record);
    i32[base + R.OPEN]! -= 1;
    if (i32[base + R.OPEN]! > 0) return;
    let dependent = i32[base + R.FIRST_DEPENDENT]!;
    while (dependent >= 0) {
      const dependentBase = this.base(dependent);
      const next = i32[dependentBase + R.NEXT_DEPENDENT]!;
      i32[dependentBase + R.DEPENDENCY] = -1;
      i32[dependentBase + R.NEXT_DEPENDENT] = -1;
      if (i32[dependentBase + R.STATE] === STATE.WAITING) this.makeReady(dependent);
      dependent = next;
    }
    const parent = i32[base + R.PARENT]!;
    i32[base + R.STATE] = STATE.FREE;
    i32[base + R.SERIAL] = (i32[base + R.SERIAL]! + 1) | 0;
    i32[base + R.NEXT] = i32[H.FREE_HEAD]!;
    i32[H.FREE_HEAD] = record;
    Atomics.sub(i32, H.PENDING, 1);
    this.events++;
    if (parent >= 0) this.workDone(parent);
  }

  /**
   * Claims the next groups of the highest-priority ready record. Sets claimedRecord,
   * claimedGroup and claimedCount and returns true, or returns false when nothing is ready.
   * One claim takes a share of what is left (guided self-scheduling, at most MAX_BATCH), so a
   * Dispatch of a million one-job groups costs thousands of lock round trips, not millions;
   * each group still runs whole and serially on the thread that claimed it.
   */
  claim(includeStreaming: boolean, slotAt = -1): boolean {
    const i32 = this.i32;
    // Checked without the lock, so an idle helper never contends with the workers for it.
    if (Atomics.load(i32, includeStreaming ? H.READY_COUNT : H.READY_HELPABLE) === 0) return false;
    const levels = includeStreaming ? PRIORITY_LEVELS : PRIORITY_LEVELS - 1;
    this.lock();
    for (let level = 0; level < levels; level++) {
      const record = i32[H.READY_HEAD + level]!;
      if (record < 0) continue;
      const base = this.base(record);
      const group = i32[base + R.NEXT_GROUP]!;
      const share = Math.floor((i32[base + R.GROUP_COUNT]! - group) / this.batchDivisor);
      const count = share < 1 ? 1 : share > MAX_BATCH ? MAX_BATCH : share;
      i32[base + R.NEXT_GROUP] = group + count;
      if (group + count === i32[base + R.GROUP_COUNT]) {
        const next = i32[base + R.NEXT]!;
        i32[H.READY_HEAD + level] = next;
        if (next < 0) i32[H.READY_TAIL + level] = -1;
        i32[base + R.STATE] = STATE.RUNNING;
        Atomics.sub(i32, H.READY_COUNT, 1);
        if (level !== STREAMING) Atomics.sub(i32, H.READY_HELPABLE, 1);
      }
      if (slotAt >= 0) {
        // Recorded before the lock is let go: a worker killed from here on leaves in its slot
        // exactly the groups it took, for the pool to count and report.
        Atomics.store(i32, slotAt + SLOT.GROUP, group);
        Atomics.store(i32, slotAt + SLOT.BATCH_FIRST, group);
        Atomics.store(i32, slotAt + SLOT.BATCH_END, group + count);
        Atomics.store(i32, slotAt + SLOT.RECORD, record);
      }
      this.unlock();
      this.claimedRecord = record;
      this.claimedGroup = group;
      this.claimedCount = count;
      return true;
    }
    this.unlock();
    return false;
  }

  /**
   * A worker's claim has run: takes the record out of its slot and finishes the groups, unless
   * the pool already did (it counts a dead worker's claim by taking the record out the same way).
   * Nothing between the exchange and the count can be interrupted by a kill.
   */
  finishClaimed(slotAt: number, record: number, count: number): void {
    const i32 = this.i32;
    if (Atomics.compareExchange(i32, slotAt + SLOT.RECORD, record, -1) !== record) return;
    const base = this.base(record);
    const done = Atomics.add(i32, base + R.GROUPS_DONE, count) + count;
    if (done === i32[base + R.GROUP_COUNT]) this.complete(record);
  }

  /** Claimed groups have run (or failed); the last group completes the record's work. */
  finishGroups(record: number, count: number): void {
    const base = this.base(record);
    const done = Atomics.add(this.i32, base + R.GROUPS_DONE, count) + count;
    if (done === this.i32[base + R.GROUP_COUNT]) this.complete(record);
  }

  private complete(record: number): void {
    this.lock();
    this.workDone(record);
    this.unlock();
    this.flush();
  }

  /** Under no lock: wakes workers for newly ready groups and waiters for completions. */
  flush(): void {
    const i32 = this.i32;
    const woke = this.wakes > 0;
    if (woke) {
      const count = this.wakes;
      this.wakes = 0;
      Atomics.add(i32, H.WORK_SEQ, 1);
      if (Atomics.load(i32, H.SLEEPERS) > 0) Atomics.notify(i32, H.WORK_SEQ, count);
    }
    // New ready work is an event too: a main thread waiting on a task may help with it.
    if (this.events > 0 || woke) {
      this.events = 0;
      this.signalEvent();
    }
  }

  signalEvent(): void {
    Atomics.add(this.i32, H.EVENT_SEQ, 1);
    if (Atomics.load(this.i32, H.MAIN_WAITING) > 0) Atomics.notify(this.i32, H.EVENT_SEQ);
  }
}

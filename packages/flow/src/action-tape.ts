// Recording actions for later: how instances update on other threads while the host's actions,
// which touch the game, still run on the host's thread in the order one thread would have run
// them. A worker loads its programs with `recorder.registry`, whose actions append a record to a
// Float64Array instead of running; the host replays the records against its own registry. It is
// exact only for actions whose effects do not come back into an instance during the update: no
// outputs (the graph would read them at once) and no events fired into instances from `run`.
import type { FlowActionCall, FlowActionSpec } from './api.ts';
import { H } from './blob-layout.ts';
import { FlowError, FlowTapeFullError } from './errors.ts';
import type { FlowInstance, FlowProgram } from './flow-program.ts';
import { FlowRegistry } from './flow-registry.ts';

/** Record header: the instance's `user`, the action's index in `registry.actions()` (or ERROR), the value count. */
const RECORD_HEADER = 3;
/** Action index of a failure record: its values are the message's UTF-16 code units. */
const ERROR = -1;

/**
 * Records the actions that graphs call into a tape (a Float64Array, often a region of shared
 * memory) instead of running them. Records are `[user, action, count, values...]`: the instance's
 * `user` field, the action's index in `registry.actions()`, and the action's inputs as numbers
 * (a string input is its index in the instance's program's string table).
 */
export class FlowActionRecorder {
  /** Load programs with this registry on the recording thread: its actions record instead of running. */
  readonly registry: FlowRegistry;
  #tape: Float64Array = new Float64Array(0);
  #at = 0;
  #end = 0;

  /** `registry`: one that defines the same actions, in the same order, as the host's. */
  constructor(registry: FlowRegistry) {
    const recording = new FlowRegistry();
    registry.actions().forEach((spec, index) => {
      const inputs = spec.inputs ?? [];
      const outputs = spec.outputs ?? [];
      const run =
        outputs.length > 0
          ? (): void => {
              throw new FlowError(`Action "${spec.name}" has outputs, which the graph reads as soon as it returns: it cannot be recorded. Update instances whose graph calls it on the host thread (recorder.canRecord(program) says which).`);
            }
          : (call: FlowActionCall): void => {
              this.#record(call, index, inputs.length);
            };
      recording.defineAction({ name: spec.name, inputs, outputs, run });
    });
    this.registry = recording;
  }

  /** Whether every action `program` calls can be recorded (none has outputs). */
  canRecord(program: FlowProgram): boolean {
    const s = program.words;
    const table = s[H.actionTable]!;
    for (let i = 0; i < s[table]!; i++) if (s[table + 3 + 3 * i]! > 0) return false;
    return true;
  }

  /** Sends the next records to `tape[start, end)`; a record that does not fit throws {@link FlowTapeFullError}. */
  begin(tape: Float64Array, start = 0, end = tape.length): void {
    if (!(tape instanceof Float64Array)) throw new FlowError('A tape is a Float64Array.');
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= tape.length)) {
      throw new FlowError(`Tape range [${start}, ${end}) is not within the tape's ${tape.length} floats.`);
    }
    this.#tape = tape;
    this.#at = start;
    this.#end = end;
  }

  /** Where the next record goes: the records so far end here. */
  get position(): number {
    return this.#at;
  }

  /** Drops the records from `position` on (those of an update that will be run again elsewhere). */
  rewind(position: number): void {
    if (!(Number.isInteger(position) && position >= 0 && position <= this.#at)) throw new FlowError(`Can only rewind to a position already written (0..${this.#at}), got ${position}.`);
    this.#at = position;
  }

  /** Records that an update of `user`'s instance threw `message` (the host decides what a failure means). */
  recordError(user: number, message: string): void {
    const at = this.#reserve(message.length);
    const tape = this.#tape;
    tape[at] = user;
    tape[at + 1] = ERROR;
    tape[at + 2] = message.length;
    for (let i = 0; i < message.length; i++) tape[at + RECORD_HEADER + i] = message.charCodeAt(i);
  }

  #record(call: FlowActionCall, action: number, count: number): void {
    const at = this.#reserve(count);
    const tape = this.#tape;
    tape[at] = call.instance.user;
    tape[at + 1] = action;
    tape[at + 2] = count;
    for (let i = 0; i < count; i++) tape[at + RECORD_HEADER + i] = call.number(i);
  }

  #reserve(count: number): number {
    const at = this.#at;
    if (at + RECORD_HEADER + count > this.#end) throw new FlowTapeFullError(this.#end - at, RECORD_HEADER + count);
    this.#at = at + RECORD_HEADER + count;
    return at;
  }
}

/** The FlowActionCall a replayed record hands to the host's action. */
class ReplayedCall implements FlowActionCall {
  instance!: FlowInstance;
  tape: Float64Array = new Float64Array(0);
  first = 0;
  count = 0;

  number(index: number): number {
    if (!(index >= 0 && index < this.count)) throw new FlowError(`Action input index ${index} is out of range: this action has ${this.count} inputs.`);
    return this.tape[this.first + index]!;
  }
  bool(index: number): boolean {
    return this.number(index) !== 0;
  }
  string(index: number): string {
    return this.instance.program.strings[this.number(index)] ?? '';
  }
  set(): void {
    throw new FlowError('A replayed action has no outputs to set.');
  }
}

/** Runs a {@link FlowActionRecorder}'s records with the host's actions, in the order they were recorded. */
export class FlowActionReplay {
  readonly #runs: ((call: FlowActionCall) => void)[];
  readonly #call = new ReplayedCall();

  /** `registry`: the host's, defining the same actions in the same order as the recorder's. */
  constructor(registry: FlowRegistry) {
    this.#runs = registry.actions().map((spec: FlowActionSpec) => spec.run);
  }

  /**
   * Replays the records at `at` that belong to `user` (they are consecutive: one instance's update
   * runs on one thread) with `instance` as `call.instance`; a failure record calls
   * `onError(user, message)`. Returns the position after them.
   */
  run(tape: Float64Array, at: number, end: number, user: number, instance: FlowInstance, onError: (user: number, message: string) => void): number {
    const call = this.#call;
    call.instance = instance;
    call.tape = tape;
    while (at < end && tape[at] === user) {
      const action = tape[at + 1]!;
      const count = tape[at + 2]!;
      const first = at + RECORD_HEADER;
      if (!(Number.isInteger(count) && count >= 0 && first + count <= end)) throw new FlowError(`The tape's record at ${at} runs past its end: the tape is damaged.`);
      at = first + count;
      if (action === ERROR) {
        onError(user, String.fromCharCode(...tape.subarray(first, first + count)));
        continue;
      }
      const run = this.#runs[action];
      if (run === undefined) throw new FlowError(`The tape names action ${action}, and this registry has ${this.#runs.length}: record and replay with registries that define the same actions in the same order.`);
      call.first = first;
      call.count = count;
      run(call);
    }
    return at;
  }
}

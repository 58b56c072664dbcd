// The data compiler as a separate process, as in the post: `cuttle-engine compile --watch
// --json` stays running and recompiles what the tool saves; the tool reads its JSON events.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface CompiledEvent {
  event: 'compiled';
  compiled: { path: string; reason: string }[];
  failed: { path: string; message: string }[];
  ms: number;
}

export class CompilerProcess {
  readonly #child: ChildProcess;
  readonly #waiters: ((event: CompiledEvent) => void)[] = [];
  #ready: Promise<CompiledEvent>;

  constructor(command: readonly string[], source: string, out: string, onLine: (line: string) => void) {
    const [program, ...args] = command;
    this.#child = spawn(program!, [...args, 'compile', source, out, '--watch', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#ready = new Promise((resolve) => this.#waiters.push(resolve));
    createInterface({ input: this.#child.stdout! }).on('line', (line) => {
      let event: { event?: string };
      try {
        event = JSON.parse(line) as { event?: string };
      } catch {
        onLine(line);
        return;
      }
      if (event.event === 'compiled') for (const waiter of this.#waiters.splice(0)) waiter(event as CompiledEvent);
    });
    createInterface({ input: this.#child.stderr! }).on('line', onLine);
  }

  /** The first (full) compile. */
  ready(): Promise<CompiledEvent> {
    return this.#ready;
  }

  /** The next compile the watcher runs (start waiting before saving the file). */
  nextCompile(timeoutMs = 30_000): Promise<CompiledEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { reject(new Error('the compiler did not report a compile in time')); }, timeoutMs);
      this.#waiters.push((event) => {
        clearTimeout(timer);
        resolve(event);
      });
    });
  }

  stop(): void {
    this.#child.kill('SIGTERM');
  }
}

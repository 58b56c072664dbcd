// CUB's radix sort (bench/cub_sort.py through PyTorch) as a peer, in one Python process for the
// whole run: starting torch costs seconds, and a full run asks for over thirty samples.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export class CubPeer {
  readonly #command: readonly string[];
  #child: ChildProcessWithoutNullStreams | undefined;
  #pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  #partial = '';

  /** `command`: the interpreter and the script, e.g. ['python3', '.device/cub_sort.py']. */
  constructor(command: readonly string[]) {
    this.#command = command;
  }

  /** Pairs per second of CUB sorting `count` keys of kind `input` (random, sorted, reversed, few). */
  pairsPerSecond(count: number, input: string): Promise<number> {
    const child = (this.#child ??= this.#start());
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      child.stdin.write(`${count} ${input}\n`);
    });
  }

  close(): void {
    this.#child?.stdin.end();
    this.#child = undefined;
  }

  #start(): ChildProcessWithoutNullStreams {
    const [program, ...args] = this.#command;
    const child = spawn(program!, [...args, '--serve'], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => { stderr += data.toString(); });
    child.stdout.on('data', (data: Buffer) => {
      const lines = (this.#partial + data.toString()).split('\n');
      this.#partial = lines.pop()!;
      for (const line of lines) {
        const waiter = this.#pending.shift();
        if (!waiter) continue;
        if (line.startsWith('error')) waiter.reject(new Error(`cub_sort.py: ${line.slice(6)}`));
        else waiter.resolve(Number(line));
      }
    });
    const fail = (why: string): void => {
      for (const waiter of this.#pending.splice(0)) waiter.reject(new Error(`cub_sort.py ${why}${stderr ? `: ${stderr.trim()}` : ''}`));
      this.#child = undefined;
    };
    child.on('error', (error) => { fail(`could not start (${error.message})`); });
    // 'close', not 'exit': by then stderr has been read to its end.
    child.on('close', (code) => { fail(`exited (${code})`); });
    child.stdin.on('error', (error) => { fail(`stopped reading (${error.message})`); });
    return child;
  }
}

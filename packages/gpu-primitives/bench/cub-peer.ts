// CUB's radix sort as a peer, in one process for the whole run: bench/cub_sort.cu compiled on the
// GPU machine (u32 pairs or keys, as ours), or bench/cub_sort.py through PyTorch (int32 keys with
// an int64 permutation; starting torch costs seconds, and a full run asks for over thirty samples).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export class CubPeer {
  readonly #command: readonly string[];
  readonly #label: string;
  #child: ChildProcessWithoutNullStreams | undefined;
  #pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  #partial = '';

  /**
   * `command`: the program and its arguments before `--serve`, e.g. ['.device/cub_sort'] or
   * ['python3', '.device/cub_sort.py']; `label` names it in errors.
   */
  constructor(command: readonly string[], label = 'cub_sort.py') {
    this.#command = command;
    this.#label = label;
  }

  /** Pairs per second of CUB sorting `count` keys of kind `input` (random, sorted, reversed, few). */
  pairsPerSecond(count: number, input: string): Promise<number> {
    return this.#ask(`${count} ${input}`);
  }

  /** Keys per second of CUB sorting `count` keys of kind `input` without values (cub_sort.cu only). */
  keysPerSecond(count: number, input: string): Promise<number> {
    return this.#ask(`${count} ${input} keys`);
  }

  /** Elements per second of CUB's exclusive sum over `count` u32 (i % 7) (cub_sort.cu only). */
  scanElementsPerSecond(count: number): Promise<number> {
    return this.#ask(`${count} scan`);
  }

  #ask(request: string): Promise<number> {
    const child = (this.#child ??= this.#start());
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      child.stdin.write(`${request}\n`);
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
        if (line.startsWith('error')) waiter.reject(new Error(`${this.#label}: ${line.slice(6)}`));
        else waiter.resolve(Number(line));
      }
    });
    const fail = (why: string): void => {
      for (const waiter of this.#pending.splice(0)) waiter.reject(new Error(`${this.#label} ${why}${stderr ? `: ${stderr.trim()}` : ''}`));
      this.#child = undefined;
    };
    child.on('error', (error) => { fail(`could not start (${error.message})`); });
    // 'close', not 'exit': by then stderr has been read to its end.
    child.on('close', (code) => { fail(`exited (${code})`); });
    child.stdin.on('error', (error) => { fail(`stopped reading (${error.message})`); });
    return child;
  }
}

// Runs a command and keeps its exit code and output: the registry test needs failing commands
// (a refused publish) as results, not only as exceptions.
import { spawn } from 'node:child_process';

export interface CommandResult {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** A command that was expected to succeed and did not. */
export class CommandError extends Error {
  readonly result: CommandResult;
  constructor(result: CommandResult) {
    const output = `${result.stderr}\n${result.stdout}`.trim();
    super(`\`${result.command}\` exited with ${result.code}${output === '' ? '' : `:\n${tail(output, 40)}`}`);
    this.name = 'CommandError';
    this.result = result;
  }
}

/** The last `lines` lines of `text`. */
export function tail(text: string, lines: number): string {
  const all = text.trimEnd().split('\n');
  return (all.length > lines ? ['…', ...all.slice(-lines)] : all).join('\n');
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** Quiet npm and pnpm: no update notices, funding or audit requests. */
export const quietEnv: Record<string, string> = {
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/** Runs `command argv` to completion; never throws for a non-zero exit (code is -1 on timeout or spawn failure). */
export function runCommand(command: string, argv: string[], options: RunOptions): Promise<CommandResult> {
  const label = [command, ...argv].join(' ');
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd: options.cwd, env: { ...process.env, ...quietEnv, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${options.timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ command: label, code: -1, stdout, stderr: `${stderr}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ command: label, code: code ?? -1, stdout, stderr });
    });
  });
}

/** Runs `command argv` and throws a CommandError unless it exits 0. */
export async function runOk(command: string, argv: string[], options: RunOptions): Promise<CommandResult> {
  const result = await runCommand(command, argv, options);
  if (result.code !== 0) throw new CommandError(result);
  return result;
}

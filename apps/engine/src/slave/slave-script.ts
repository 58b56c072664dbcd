// Slave scripts: a module of the project, loaded from a path given on the command line (never
// from the network), whose commands a tool calls by name with `script` messages, as the post's
// particle_editor_slave.lua. The module exports `createSlave(api)` returning its commands.
import { pathToFileURL } from 'node:url';
import { EngineError } from '../errors.ts';

export type ScriptValue = string | number | boolean | null | ScriptValue[] | { [key: string]: ScriptValue };

/** What a slave script may do to the engine. */
export interface SlaveApi {
  log(message: string): void;
  units(): { id: string; unit: string; position: [number, number, number] }[];
  moveUnit(id: string, position: [number, number, number]): boolean;
  setCamera(position: [number, number, number], target: [number, number, number]): void;
  setTitle(text: string): void;
  title(): string;
  /** Time of the world, seconds. */
  time(): number;
}

export type SlaveCommand = (...args: (string | number | boolean | null)[]) => ScriptValue | undefined;
export type SlaveCommands = Readonly<Record<string, SlaveCommand>>;

export interface SlaveModule {
  createSlave(api: SlaveApi): SlaveCommands;
}

export async function loadSlaveScript(path: string, api: SlaveApi): Promise<SlaveCommands> {
  const module = (await import(pathToFileURL(path).href)) as Partial<SlaveModule>;
  if (typeof module.createSlave !== 'function') throw new EngineError(`${path} does not export createSlave(api); a slave script returns its commands from it.`);
  const commands = module.createSlave(api);
  const own: Record<string, SlaveCommand> = Object.create(null) as Record<string, SlaveCommand>;
  for (const name of Object.keys(commands)) if (typeof commands[name] === 'function') own[name] = commands[name];
  return own;
}

/** Runs a command by name; only the module's own functions can be reached. */
export function runSlaveCommand(commands: SlaveCommands, name: string, args: readonly (string | number | boolean | null)[]): ScriptValue | undefined {
  if (!Object.hasOwn(commands, name)) throw new EngineError(`the slave script has no command "${name}"; it has: ${Object.keys(commands).join(', ') || 'none'}`);
  return commands[name]!(...args);
}

// How a level reads a unit it places: every problem in the unit (empty, its syntax, a value, a
// reference) fails the level at the placement, naming the unit's own line and column, since the
// level's text has no position for a path inside another file.
import { CompileError } from '../../errors.ts';
import { parseDocument, type CompileContext, type PathKey } from '../context.ts';
import { locate } from '../locate.ts';

export function placedUnitContext(level: CompileContext, path: string, name: string, bytes: Uint8Array, at: readonly PathKey[]): CompileContext {
  const text = new TextDecoder().decode(bytes);
  const report = (line: number, column: number, problem: string, fix: string): never => level.fail(at, `${path}:${line}:${column} (placed here): ${problem}`, fix);
  const fail = (unitAt: readonly PathKey[], problem: string, fix: string): never => {
    const { line, column } = locate(text, unitAt);
    return report(line, column, problem, fix);
  };
  return {
    ...level,
    path,
    type: 'unit',
    name,
    bytes,
    text: () => text,
    document: () => {
      try {
        return parseDocument(path, text);
      } catch (error) {
        if (error instanceof CompileError) return report(error.line, error.column, error.problem, error.fix);
        throw error;
      }
    },
    requireResource: (type, resource, unitAt) => {
      try {
        level.requireResource(type, resource, unitAt);
      } catch (error) {
        // The level's check located the path in the level's text: keep its words, not its place.
        if (error instanceof CompileError) fail(unitAt, error.problem, error.fix);
        throw error;
      }
    },
    fail,
  };
}

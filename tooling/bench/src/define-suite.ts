import type { BenchSuite, BenchSuiteDefinition } from './api.ts';

export class BenchDefinitionError extends Error {
  override readonly name = 'BenchDefinitionError';
}

/** Declares a package's benchmark suite; the file exports it as `suite`. */
export function defineSuite(definition: BenchSuiteDefinition): BenchSuite {
  if (!definition.package.startsWith('@cuttle/')) throw new BenchDefinitionError(`package must be an @cuttle/ name, got "${definition.package}".`);
  const rounds = definition.rounds ?? 7;
  if (!Number.isInteger(rounds) || rounds < 1) throw new BenchDefinitionError(`rounds must be a positive integer, got ${rounds}.`);
  return { package: definition.package, kind: definition.kind ?? 'cpu', rounds, definition };
}

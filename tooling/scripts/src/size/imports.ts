// What a README example imports from Cuttle: per specifier (`@cuttle/x`, `@cuttle/x/sub`), the
// names it imports, type-only imports left out (they cost no bytes). The example is the first
// block of the README's "## Example" section (the package's example, as in the packed-install
// test) plus the modules it ships beside it (`// kernels.ts` blocks).
import ts from 'typescript';
import { readmeExample } from '../packed/examples.ts';

/** Specifier → imported names; `*` stands for a namespace import (the whole module). */
export type ExampleImports = Map<string, Set<string>>;

export function cuttleImports(code: string): ExampleImports {
  const out: ExampleImports = new Map();
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    const clause = statement.importClause;
    if (!specifier.startsWith('@cuttle/') || clause === undefined || clause.phaseModifier === ts.SyntaxKind.TypeKeyword) continue;
    const names = out.get(specifier) ?? new Set<string>();
    if (clause.name !== undefined) names.add('default');
    const bindings = clause.namedBindings;
    if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.add('*');
    else if (bindings !== undefined) {
      for (const element of bindings.elements) if (!element.isTypeOnly) names.add((element.propertyName ?? element.name).text);
    }
    if (names.size > 0) out.set(specifier, names);
  }
  return out;
}

export function readmeExampleImports(readme: string): ExampleImports {
  const { blocks, modules } = readmeExample(readme);
  const out: ExampleImports = new Map();
  for (const code of [...blocks.slice(0, 1), ...modules.map((m) => m.code)]) {
    for (const [specifier, names] of cuttleImports(code)) {
      const into = out.get(specifier) ?? new Set<string>();
      for (const name of names) into.add(name);
      out.set(specifier, into);
    }
  }
  return out;
}

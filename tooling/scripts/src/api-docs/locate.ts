// Names the symbol a doc comment message is about, and where it is in the package's src/.
// api-extractor reads the built dist/*.d.ts, so its messages point there (and ae-undocumented
// gives only the member's own name); the comment to fix is in src/. The .d.ts is parsed to
// find the declaration at the message's line (its qualified name, `World.spawn`), and src/ is
// searched for that declaration: the exported one, then the member after it in the same file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Where a message's declaration is: its qualified name, and its src/ file and line when found. */
export interface DocLocation {
  /** `World`, `World.spawn`, `WorldOptions.capacity`; undefined when no declaration is at the line. */
  symbol: string | undefined;
  /** The src/ file (absolute) and 1-based line of the declaration, when found. */
  srcFile?: string;
  srcLine?: number;
}

const dtsCache = new Map<string, ts.SourceFile>();
const srcCache = new Map<string, { path: string; lines: string[] }[]>();

function parsedDts(path: string): ts.SourceFile {
  let file = dtsCache.get(path);
  if (file === undefined) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    dtsCache.set(path, file);
  }
  return file;
}

function declarationName(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node) || ts.isConstructSignatureDeclaration(node)) return 'constructor';
  if (ts.isIndexSignatureDeclaration(node)) return `[${node.parameters.map((p) => p.getText()).join(', ')}]`;
  if (ts.isCallSignatureDeclaration(node)) return '(call)';
  if (ts.isVariableStatement(node)) {
    const first = node.declarationList.declarations[0];
    return first !== undefined && ts.isIdentifier(first.name) ? first.name.text : undefined;
  }
  const name = (node as ts.NamedDeclaration).name;
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}

function isNamedDeclaration(node: ts.Node): boolean {
  return (
    ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node) || ts.isModuleDeclaration(node) || ts.isVariableStatement(node) || ts.isEnumMember(node) ||
    ts.isPropertyDeclaration(node) || ts.isPropertySignature(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node) ||
    ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || ts.isConstructorDeclaration(node) ||
    ts.isConstructSignatureDeclaration(node) || ts.isIndexSignatureDeclaration(node) || ts.isCallSignatureDeclaration(node)
  );
}

/** The qualified name of the innermost declaration whose text (leading comment included) holds the 1-based line. */
export function symbolAt(dtsPath: string, line: number): string | undefined {
  const file = parsedDts(dtsPath);
  const lineStarts = file.getLineStarts();
  const pos = lineStarts[Math.max(0, Math.min(line - 1, lineStarts.length - 1))]!;
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    for (const child of node.getChildren(file)) {
      if (child.getFullStart() > pos || child.getEnd() <= pos) continue;
      if (isNamedDeclaration(child)) {
        const name = declarationName(child);
        if (name !== undefined) names.push(name);
      }
      visit(child);
      return;
    }
  };
  visit(file);
  return names.length === 0 ? undefined : names.join('.');
}

function srcFiles(packageDir: string): { path: string; lines: string[] }[] {
  const cached = srcCache.get(packageDir);
  if (cached === undefined) {
    const files: { path: string; lines: string[] }[] = [];
    const walk = (dir: string): void => {
      for (const item of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const path = join(dir, item.name);
        if (item.isDirectory()) walk(path);
        else if (/\.m?ts$/.test(item.name) && !item.name.endsWith('.d.ts')) files.push({ path, lines: readFileSync(path, 'utf8').split('\n') });
      }
    };
    const src = join(packageDir, 'src');
    if (existsSync(src)) walk(src);
    srcCache.set(packageDir, files);
    return files;
  }
  return cached;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds the src/ declaration of a qualified name: the exported top-level one, then each member after it. */
export function locateInSrc(packageDir: string, symbol: string): { srcFile: string; srcLine: number } | undefined {
  const [top, ...members] = symbol.split('.');
  if (top === undefined) return undefined;
  const topPattern = new RegExp(
    `^\\s*export\\s+(?:declare\\s+)?(?:default\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:function\\*?|class|interface|type|const|let|var|enum|namespace)\\s+${escape(top)}\\b`,
  );
  for (const { path, lines } of srcFiles(packageDir)) {
    let index = lines.findIndex((text) => topPattern.test(text));
    if (index < 0) continue;
    for (const member of members) {
      const memberPattern = member === 'constructor'
        ? /^\s*(?:public\s+|private\s+|protected\s+)?constructor\s*\(/
        : new RegExp(`^\\s*(?:(?:public|protected|private|static|readonly|abstract|override|declare|async|get|set)\\s+)*\\*?['"]?${escape(member)}['"]?\\??\\s*[:(<=!,]`);
      const next = lines.findIndex((text, i) => i > index && memberPattern.test(text));
      if (next < 0) break;
      index = next;
    }
    return { srcFile: path, srcLine: index + 1 };
  }
  return undefined;
}

/** The symbol and src/ place of a message at `line` of `dtsPath`, in the package at `packageDir`. */
export function locate(packageDir: string, dtsPath: string, line: number): DocLocation {
  const symbol = existsSync(dtsPath) ? symbolAt(dtsPath, line) : undefined;
  if (symbol === undefined) return { symbol };
  const found = locateInSrc(packageDir, symbol);
  return found === undefined ? { symbol } : { symbol, ...found };
}

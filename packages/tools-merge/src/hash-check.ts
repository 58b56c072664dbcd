// The static-hash checker over files and folders, and its CLI commands.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { CliCommand } from './cli-main.ts';
import { ToolsMergeError } from './errors.ts';
import { hashHex, murmurHash2, murmurHash64A } from './murmur.ts';
import { scanStaticHashes, type StaticHashFinding } from './static-hash.ts';

/** Extensions scanned when a folder is given. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.c', '.cc', '.cpp', '.h', '.hpp', '.inl', '.cs', '.lua'];

function collect(path: string, out: string[], extensions: readonly string[]): void {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path).sort()) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      collect(join(path, entry), out, extensions);
    }
  } else if (extensions.includes(extname(path))) {
    out.push(path);
  }
}

/** Scans files (folders recursively, by extension) for static-hash pairs; returns every finding. */
export function checkStaticHashFiles(paths: readonly string[], extensions: readonly string[] = SOURCE_EXTENSIONS): StaticHashFinding[] {
  const given: unknown = paths;
  if (!Array.isArray(given) || paths.length === 0) throw new ToolsMergeError('give at least one file or folder to scan');
  const files: string[] = [];
  for (const p of paths) {
    if (statSync(p).isFile()) files.push(p);
    else collect(p, files, extensions);
  }
  const findings: StaticHashFinding[] = [];
  for (const f of files) findings.push(...scanStaticHashes(readFileSync(f, 'utf8'), f));
  return findings;
}

/** `cuttle-merge hash <string>...` */
export const hashCommand: CliCommand = (p, io) => {
  if (p.positional.length === 0) throw new ToolsMergeError('usage: cuttle-merge hash <string>...');
  for (const s of p.positional) io.stdout(`${hashHex(murmurHash2(s))}  ${hashHex(murmurHash64A(s))}  ${JSON.stringify(s)}\n`);
  return 0;
};

/** `cuttle-merge hash-check <file|dir>...` */
export const hashCheckCommand: CliCommand = (p, io) => {
  const findings = checkStaticHashFiles(p.positional);
  const wrong = findings.filter((f) => !f.ok);
  for (const f of wrong) io.stderr(`${f.source}:${f.line}:${f.column}: static_hash("${f.name}", ${f.literal}) should be ${f.expected}\n`);
  io.stdout(`${findings.length} static hash pair(s) checked, ${wrong.length} wrong\n`);
  return wrong.length > 0 ? 1 : 0;
};

// Reading and writing documents on disk: `.json` files are written as JSON, everything else
// (`.sjson`, `.level`, `.unit`, ...) as SJSON. Both are read by the same parser.
import { readFileSync, writeFileSync } from 'node:fs';
import type { JsonValue } from './api.ts';
import { parseSjson } from './sjson-parse.ts';
import { writeJson, writeSjson } from './sjson-write.ts';

export type DocumentFormat = 'json' | 'sjson';

/** The format a path is written in: JSON for `.json`, SJSON otherwise. */
export function formatOf(path: string): DocumentFormat {
  return path.toLowerCase().endsWith('.json') ? 'json' : 'sjson';
}

/** Parses the file at `path`; a parse error names the file, line and column. */
export function readDocument(path: string): JsonValue {
  return parseSjson(readFileSync(path, 'utf8'), { source: path });
}

export function formatDocument(value: JsonValue, format: DocumentFormat): string {
  return format === 'json' ? writeJson(value) : writeSjson(value);
}

/** Writes `value` to `path` in the path's format (or `format`). */
export function writeDocument(path: string, value: JsonValue, format: DocumentFormat = formatOf(path)): void {
  writeFileSync(path, formatDocument(value, format));
}

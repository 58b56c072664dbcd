// Reading and writing documents on disk: `.json` files are written as JSON, everything else
// (`.sjson`, `.level`, `.unit`, ...) as SJSON. Both are read by the same parser.
import { readFileSync, writeFileSync } from 'node:fs';
import type { JsonValue, WriteOptions } from './api.ts';
import type { SjsonDocument } from './comments.ts';
import { parseSjson, parseSjsonDocument } from './sjson-parse.ts';
import { writeJson, writeSjson } from './sjson-write.ts';

/** How a file is written: JSON (`.json` files) or SJSON (any other). */
export type DocumentFormat = 'json' | 'sjson';

/** The format a path is written in: JSON for `.json`, SJSON otherwise. */
export function formatOf(path: string): DocumentFormat {
  return path.toLowerCase().endsWith('.json') ? 'json' : 'sjson';
}

/** Parses the file at `path`; a parse error names the file, line and column. */
export function readDocument(path: string): JsonValue {
  return parseSjson(readFileSync(path, 'utf8'), { source: path });
}

/** A file read with its comments, and its text (for its layout). */
export interface FileDocument extends SjsonDocument {
  /** The file's text as read. */
  text: string;
}

/** Parses the file at `path` keeping its comments (anchored with `idKeys`). */
export function readFileDocument(path: string, idKeys?: readonly string[]): FileDocument {
  const text = readFileSync(path, 'utf8');
  return { text, ...parseSjsonDocument(text, { source: path, idKeys }) };
}

/**
 * The text of `value` in `format`; `options` carry SJSON comments and layout (`sjsonStyleOf`).
 * JSON has no comments: they are not written (callers that had some say so).
 */
export function formatDocument(value: JsonValue, format: DocumentFormat, options: WriteOptions = {}): string {
  return format === 'json' ? writeJson(value, { indent: options.indent }) : writeSjson(value, options);
}

/** Writes `value` to `path` in the path's format (or `format`). */
export function writeDocument(path: string, value: JsonValue, format: DocumentFormat = formatOf(path), options: WriteOptions = {}): void {
  writeFileSync(path, formatDocument(value, format, options));
}

// The `cuttle-merge` command line: diff, merge, the git merge driver, plus the dependency
// checker and the static-hash checker. Everything runs through `runCli`, which takes argv and an
// output sink and returns the exit code, so tests drive it in-process; src/cli.ts is the thin bin.
import { copyFileSync, writeFileSync } from 'node:fs';
import type { JsonValue, MergePolicy, MergeResult } from './api.ts';
import { formatPath } from './apply.ts';
import { formatCommentNote, mergeComments, sameComments, type CommentMergeResult } from './comments.ts';
import { diff } from './diff.ts';
import { jsonEqual } from './equal.ts';
import { ToolsMergeError } from './errors.ts';
import { formatDocument, formatOf, readDocument, readFileDocument, type DocumentFormat, type FileDocument } from './files.ts';
import { merge } from './merge.ts';
import { sjsonStyleOf } from './sjson-write.ts';
import { diffLines, mergeLines, renderHtml, renderTerminal } from './visual.ts';

/** Where a CLI command writes: standard output and standard error (the Node layer passes process's; tests capture them). */
export interface CliIo {
  /** Writes `text` to standard output (as given: no newline is added). */
  stdout(text: string): void;
  /** Writes `text` to standard error (as given: no newline is added). */
  stderr(text: string): void;
  /** Colour for terminal output (default: false). */
  color?: boolean;
}

/** Usage text; it is also the git install guide. */
export const USAGE = `cuttle-merge: structural 3-way merge for JSON and SJSON game data

  cuttle-merge diff <a> <b> [--json] [--html <out.html>] [--id-key <keys>]
      Structural diff (coloured on a terminal). --json prints the operation list.
  cuttle-merge merge <base> <left> <right> [-o <out>] [--policy right|left] [--html <out.html>] [--id-key <keys>]
      3-way merge; conflicts go to the policy's side (right by default) and every losing change
      is printed on stderr. Without -o the result goes to stdout. Comments are merged and kept.
  cuttle-merge git-driver <%O> <%A> <%B> [<%P>] [--policy right|left] [--id-key <keys>]
      git merge-driver mode: merges ancestor %O, ours %A and theirs %B into %A.

  --id-key <keys>  keys that identify elements of object arrays, comma-separated, tried in order
                   (default id,Id,ID,_guid,_id); may be given more than once.
  cuttle-merge deps <command> <root> ...      the dependency checker (cuttle-merge deps help)
  cuttle-merge hash <string>...               32-bit murmur2 and 64-bit MurmurHash64A of each string
  cuttle-merge hash-check <file|dir>...       fail on a wrong static_hash("name", 0x...) literal

Install as a git merge driver (once per clone), then name the files it handles:
  git config merge.cuttle.name "cuttle structural JSON/SJSON merge"
  git config merge.cuttle.driver "cuttle-merge git-driver %O %A %B %P"
  echo "*.sjson merge=cuttle" >> .gitattributes
  echo "*.level merge=cuttle" >> .gitattributes
`;

/** Parsed command-line arguments: positional values and flags. */
export interface CliArgs {
  /** Arguments that are not flags or flag values, in order. */
  positional: string[];
  /** Flags by name (`--policy`, `-o`): their value, or `true` for a flag without one; repeated list flags are joined with commas. */
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['-o', '--out', '--policy', '--html', '--name', '--referrers', '--extensions', '--id-key']);
/** Value flags that may repeat; their values are joined with commas. */
const LIST_FLAGS = new Set(['--id-key']);

export function parseArgs(argv: readonly string[]): CliArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('-') && a.length > 1) {
      if (VALUE_FLAGS.has(a)) {
        const v = argv[++i];
        if (v === undefined) throw new ToolsMergeError(`${a} needs a value`);
        const had = flags.get(a);
        flags.set(a, LIST_FLAGS.has(a) && typeof had === 'string' ? `${had},${v}` : v);
      } else {
        flags.set(a, true);
      }
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

function policyOf(p: CliArgs): MergePolicy {
  const v = p.flags.get('--policy') ?? 'right';
  if (v !== 'right' && v !== 'left') throw new ToolsMergeError(`--policy must be right or left, got ${String(v)}`);
  return v;
}

/** `--id-key _guid,id` → ['_guid', 'id']; undefined (the defaults) when not given. */
export function idKeysOf(p: CliArgs): string[] | undefined {
  const v = p.flags.get('--id-key');
  if (v === undefined) return undefined;
  const keys = typeof v === 'string' ? v.split(',').map((k) => k.trim()) : [];
  if (keys.length === 0 || keys.some((k) => k.length === 0)) throw new ToolsMergeError(`--id-key needs key names separated by commas, e.g. --id-key _guid,id; got ${JSON.stringify(v)}`);
  return keys;
}

function need(p: CliArgs, count: number, usage: string): void {
  if (p.positional.length < count) throw new ToolsMergeError(`usage: ${usage}`);
}

/** One `cuttle-merge` command: runs with the parsed arguments and returns the process exit code (0 success, 1 a check failed). Throws a `ToolsMergeError` for bad usage, which `runCli` reports with exit code 2. */
export type CliCommand = (p: CliArgs, io: CliIo) => number;

/** `cuttle-merge diff a b` */
export const diffCommand: CliCommand = (p, io) => {
  need(p, 2, 'cuttle-merge diff <a> <b>');
  const [aPath, bPath] = p.positional as [string, string];
  const idKeys = idKeysOf(p);
  const a = readDocument(aPath);
  const b = readDocument(bPath);
  if (p.flags.has('--json')) {
    io.stdout(JSON.stringify(diff(a, b, { idKeys }), null, 2) + '\n');
  } else {
    io.stdout(renderTerminal(diffLines(a, b, { idKeys }), { color: io.color ?? false }));
  }
  const html = p.flags.get('--html');
  if (typeof html === 'string') writeFileSync(html, renderHtml(diffLines(a, b, { idKeys }), { title: `${aPath} → ${bPath}` }));
  return 0;
};

function reportConflicts(conflicts: ReturnType<typeof merge>['conflicts'], io: CliIo, file: string): void {
  for (const c of conflicts) {
    io.stderr(`cuttle-merge: ${file}: conflict at ${formatPath(c.path)} (${c.reason}); kept ${c.winner}: ${brief(c.winner === 'right' ? c.right : c.left)}, lost ${c.winner === 'right' ? 'left' : 'right'}: ${brief(c.winner === 'right' ? c.left : c.right)}\n`);
  }
}

function reportComments(result: CommentMergeResult, io: CliIo, file: string): void {
  for (const note of result.notes) io.stderr(`cuttle-merge: ${file}: ${formatCommentNote(note)}\n`);
}

/** The merged document's text: SJSON in the layout of `like` with the merged comments; JSON has none (said on stderr). */
function mergedText(result: MergeResult, comments: CommentMergeResult, format: DocumentFormat, like: FileDocument, idKeys: string[] | undefined, io: CliIo, file: string): string {
  if (format === 'json' && comments.comments.length > 0) {
    io.stderr(`cuttle-merge: ${file}: written as JSON, which has no comments: ${comments.comments.length} comment(s) of the inputs were dropped\n`);
  }
  return formatDocument(result.merged, format, { ...sjsonStyleOf(like.text), comments: comments.comments, idKeys });
}

interface MergedFiles {
  base: FileDocument;
  left: FileDocument;
  right: FileDocument;
  result: MergeResult;
  comments: CommentMergeResult;
}

function mergeFiles(basePath: string, leftPath: string, rightPath: string, p: CliArgs): MergedFiles {
  const idKeys = idKeysOf(p);
  const base = readFileDocument(basePath, idKeys);
  const left = readFileDocument(leftPath, idKeys);
  const right = readFileDocument(rightPath, idKeys);
  const result = merge(base.value, left.value, right.value, { policy: policyOf(p), idKeys });
  const comments = mergeComments(base.comments, left.comments, right.comments, result.merged, idKeys);
  return { base, left, right, result, comments };
}

function brief(v: JsonValue | undefined): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** `cuttle-merge merge base left right` */
export const mergeCommand: CliCommand = (p, io) => {
  need(p, 3, 'cuttle-merge merge <base> <left> <right> [-o <out>]');
  const [basePath, leftPath, rightPath] = p.positional as [string, string, string];
  const { base, left, right, result, comments } = mergeFiles(basePath, leftPath, rightPath, p);
  const out = p.flags.get('-o') ?? p.flags.get('--out');
  const target = typeof out === 'string' ? out : leftPath;
  const text = mergedText(result, comments, formatOf(target), left, idKeysOf(p), io, target);
  if (typeof out === 'string') writeFileSync(out, text);
  else io.stdout(text);
  reportConflicts(result.conflicts, io, leftPath);
  reportComments(comments, io, leftPath);
  const html = p.flags.get('--html');
  if (typeof html === 'string') {
    const visual = mergeLines(base.value, left.value, right.value, result, { idKeys: idKeysOf(p) });
    writeFileSync(html, renderHtml(visual, { title: `merge of ${leftPath} and ${rightPath}`, conflicts: result.conflicts }));
  }
  return 0;
};

/** `cuttle-merge git-driver %O %A %B %P` */
export const gitDriverCommand: CliCommand = (p, io) => {
  need(p, 3, 'cuttle-merge git-driver %O %A %B [%P]');
  const [basePath, oursPath, theirsPath, realPath] = p.positional as [string, string, string, string | undefined];
  const name = realPath ?? oursPath;
  const { left: ours, right: theirs, result, comments } = mergeFiles(basePath, oursPath, theirsPath, p);
  // When the result (data and comments) is one side exactly, keep that side's bytes; otherwise
  // write it in ours' layout. git's temporary files have no extension: the format comes from %P.
  if (jsonEqual(result.merged, theirs.value) && sameComments(comments.comments, theirs.comments)) copyFileSync(theirsPath, oursPath);
  else if (!jsonEqual(result.merged, ours.value) || !sameComments(comments.comments, ours.comments)) {
    writeFileSync(oursPath, mergedText(result, comments, formatOf(name), ours, idKeysOf(p), io, name));
  }
  reportConflicts(result.conflicts, io, name);
  reportComments(comments, io, name);
  return 0;
};

export const helpCommand: CliCommand = (_p, io) => {
  io.stdout(USAGE);
  return 0;
};

/** Runs one of `commands`; returns the process exit code (0 success, 1 check failed, 2 bad input). */
export function dispatch(commands: ReadonlyMap<string, CliCommand>, argv: readonly string[], io: CliIo): number {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : commands.get(name);
  if (command === undefined) {
    io.stderr(name === undefined || name === '--help' || name === '-h' ? USAGE : `cuttle-merge: unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
    return name === undefined || name === '--help' || name === '-h' ? 0 : 2;
  }
  try {
    return command(parseArgs(rest), io);
  } catch (e) {
    if (e instanceof ToolsMergeError || (e instanceof Error && 'code' in e && typeof e.code === 'string')) {
      io.stderr(`cuttle-merge: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

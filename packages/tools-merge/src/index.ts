export type {
  CommentPlace,
  DiffOp,
  DiffOptions,
  JsonObject,
  JsonValue,
  MergeConflict,
  MergeOptions,
  MergePolicy,
  MergeResult,
  Path,
  PathSegment,
  SjsonComment,
  WriteOptions,
} from './api.ts';
export { SjsonParseError, ToolsMergeError } from './errors.ts';
export { MAX_DEPTH, parseSjson, parseSjsonDocument, type ParseOptions } from './sjson-parse.ts';
export { sjsonStyleOf, writeJson, writeSjson } from './sjson-write.ts';
export {
  formatCommentNote,
  mergeComments,
  type CommentMergeNote,
  type CommentMergeResult,
  type SjsonDocument,
} from './comments.ts';
export { jsonClone, jsonEqual } from './equal.ts';
export { diff } from './diff.ts';
export { apply, formatPath } from './apply.ts';
export { merge } from './merge.ts';
export { DEFAULT_ID_KEYS, idKindOf, type Id, type IdKeyKind, type IdKind } from './id-array.ts';
export { diffSequence, type Hunk } from './sequence-diff.ts';
export { valueAt } from './value-at.ts';
export {
  diffLines,
  mergeLines,
  renderHtml,
  renderTerminal,
  type LineKind,
  type LineOrigin,
  type VisualLine,
  type VisualOptions,
} from './visual.ts';
export { hashHex, murmurHash2, murmurHash64A, murmurHash64AInto } from './murmur.ts';
export { scanStaticHashes, setStaticHashChecks, staticHash, staticHash64, StaticHashError, type StaticHashFinding } from './static-hash.ts';
export {
  blob,
  Database,
  DataModelError,
  decodeOp,
  decodeValue,
  encodeOp,
  encodeValue,
  isGuid,
  newGuid,
  ref,
  ROOT_GUID,
  type DbBlob,
  type DbKeyValue,
  type DbOp,
  type DbRef,
  type DbRefSet,
  type DbValue,
  type Guid,
  type IntegrityReport,
} from './database.ts';
export { checkout, MemoryStore, Workspace, type CommittedOp, type ObjectStore } from './object-store.ts';
export {
  applyChanges,
  DependencyGraph,
  resourceOf,
  resourcePath,
  type DependencyOptions,
  type FileChanges,
  type Reference,
  type ResourceId,
} from './dependency-checker.ts';

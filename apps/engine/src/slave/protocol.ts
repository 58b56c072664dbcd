// The tool protocol: small JSON messages, as in the post. Every message from a tool is parsed
// with JSON.parse (never evaluated) and checked against these valibot schemas; anything else
// gets an `error` reply naming the problem. Frames go the other way as binary messages.
import * as v from 'valibot';

export const PROTOCOL_VERSION = 1;
/** The WebSocket subprotocol; the token travels as a second one, `token.<hex>`. */
export const SUBPROTOCOL = 'cuttle.v1';
/** Largest text message a tool may send (a larger one gets an error reply). */
export const MAX_MESSAGE_BYTES = 16 * 1024;
/** Past this the connection is closed with 1009 (ws's maxPayload). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

const finite = v.pipe(v.number(), v.finite());
const vec3 = v.tuple([finite, finite, finite]);
const resourcePath = v.pipe(v.string(), v.maxLength(256), v.regex(/^[a-z0-9_\-/]+\.[a-z0-9]+$/i, 'a source path such as levels/courtyard.level'));
const jsonScalar = v.union([v.string(), finite, v.boolean(), v.null()]);

/** Longest unit id or Flow node id a tool may name. */
export const MAX_FLOW_ID_CHARS = 128;
const flowId = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_FLOW_ID_CHARS));
const requestId = v.optional(v.pipe(v.number(), v.integer()));
const flowAction = <A extends string, E extends v.ObjectEntries>(action: A, entries: E) => v.strictObject({ type: v.literal('flow'), action: v.literal(action), id: requestId, ...entries });

/** Live Flow debugging (src/slave/flow-debugger.ts): the tool watches one unit's graph. */
const FlowMessage = v.variant('action', [
  /** The units that run Flow graphs: reply `flow.units`. */
  flowAction('list', {}),
  /** Watch a placed unit's instance (its id in the level), or the level's own graph (null); replaces this connection's watch. */
  flowAction('watch', { unit: v.nullable(flowId) }),
  flowAction('unwatch', {}),
  /** Sets or clears a breakpoint on a node (its id in the graph) of the watched instance. */
  flowAction('breakpoint', { node: flowId, on: v.boolean() }),
  /** Lets the watched instance run on from a pause. */
  flowAction('continue', {}),
  /** Runs the node the watched instance stopped before and stops before the next; on a running instance, stops it before its next node. */
  flowAction('step', {}),
]);

export const ToolMessage = v.variant('type', [
  /** A log line from the tool, logged by the engine as the tool's. */
  v.strictObject({ type: v.literal('message'), level: v.picklist(['info', 'warning', 'error']), system: v.pipe(v.string(), v.maxLength(64)), message: v.pipe(v.string(), v.maxLength(4096)) }),
  /** Profiler data on or off. */
  v.strictObject({ type: v.literal('profiler'), enable: v.boolean() }),
  /** The memory overview (the allocator tree) about twice a second, or no more of it. */
  v.strictObject({ type: v.literal('memory'), subscribe: v.boolean() }),
  /** A command of the slave script the engine was booted with. */
  v.strictObject({ type: v.literal('script'), id: requestId, command: v.pipe(v.string(), v.regex(/^[a-z_][a-z0-9_]*$/i, 'a command name (letters, digits, _)'), v.maxLength(64)), args: v.optional(v.pipe(v.array(jsonScalar), v.maxLength(16)), []) }),
  /** Resources that were recompiled (source paths). */
  v.strictObject({ type: v.literal('reload'), id: requestId, resources: v.pipe(v.array(resourcePath), v.minLength(1), v.maxLength(256)) }),
  /** Start (or change) the frame stream, stop it, or acknowledge a received frame. */
  v.strictObject({
    type: v.literal('frame'),
    width: v.optional(v.pipe(v.number(), v.integer(), v.minValue(64), v.maxValue(3840), v.multipleOf(64, 'a multiple of 64'))),
    height: v.optional(v.pipe(v.number(), v.integer(), v.minValue(16), v.maxValue(2160))),
    fps: v.optional(v.pipe(v.number(), v.minValue(0.1), v.maxValue(60))),
    quality: v.optional(v.pipe(v.number(), v.integer(), v.minValue(10), v.maxValue(100))),
    stop: v.optional(v.boolean()),
    /** Screen-space ambient occlusion on or off (off is a cheaper preview on slow adapters). */
    ssao: v.optional(v.boolean()),
    ack: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
  /** Camera input: where the engine's view is. */
  v.strictObject({ type: v.literal('camera'), position: vec3, target: vec3, fovY: v.optional(v.pipe(v.number(), v.gtValue(0.05), v.ltValue(3))) }),
  FlowMessage,
]);

export type ToolMessage = v.InferOutput<typeof ToolMessage>;
export type FlowToolMessage = v.InferOutput<typeof FlowMessage>;
export const MESSAGE_TYPES = ['message', 'profiler', 'memory', 'script', 'reload', 'frame', 'camera', 'flow'] as const;

export type ParseResult = { ok: true; message: ToolMessage } | { ok: false; problem: string };

/** Parses one text message from a tool. Never throws. */
export function parseToolMessage(text: string): ParseResult {
  if (text.length > MAX_MESSAGE_BYTES) return { ok: false, problem: `message of ${text.length} bytes is larger than the ${MAX_MESSAGE_BYTES} allowed` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `malformed JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, problem: 'a message must be a JSON object with a "type"' };
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(type)) {
    return { ok: false, problem: `unknown message type ${type === undefined ? 'undefined' : JSON.stringify(type)}; known types: ${MESSAGE_TYPES.join(', ')}` };
  }
  const result = v.safeParse(ToolMessage, data);
  if (!result.success) {
    const issue = result.issues[0];
    const path = v.getDotPath(issue);
    return { ok: false, problem: `${type} message${path ? `, field ${path}` : ''}: ${issue.message}` };
  }
  return { ok: true, message: result.output };
}

/** Binary frame header: magic, sequence, width, height, reload generation, then the JPEG. */
export const FRAME_MAGIC = 0x46545543; // "CUTF"
export const FRAME_HEADER_BYTES = 20;

// Who may connect: the random token (sent as the WebSocket subprotocol `token.<hex>`, since
// browsers cannot set headers), an allowed Origin for browser connections (a page on another
// site must not drive the engine: the Vite/Vitest dev-server advisories), and a Host header
// naming this server (DNS rebinding).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(16).toString('hex');
}

export interface AuthOptions {
  token: string;
  allowedOrigins: readonly string[];
  /** host:port forms this server answers to. */
  hosts: readonly string[];
}

export type AuthResult = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** Longest header text quoted in a refusal: the reason is logged, and the header is the attacker's. */
const QUOTED_HEADER_CHARS = 80;

/** A header value as a JSON string (control characters escaped), cut to QUOTED_HEADER_CHARS. */
function quoteHeader(value: string): string {
  return value.length <= QUOTED_HEADER_CHARS ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, QUOTED_HEADER_CHARS))}… (${value.length} characters)`;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function authorize(request: IncomingMessage, options: AuthOptions): AuthResult {
  const host = request.headers.host ?? '';
  if (!options.hosts.includes(host.toLowerCase())) return { ok: false, status: 403, reason: `Host ${quoteHeader(host)} is not this engine` };
  const origin = request.headers.origin;
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) return { ok: false, status: 403, reason: `Origin ${quoteHeader(origin)} is not allowed (start the engine with --allow-origin <that origin> to allow it)` };
  const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const token = offered.find((p) => p.startsWith('token.'))?.slice('token.'.length);
  if (token === undefined || !sameToken(token, options.token)) return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}

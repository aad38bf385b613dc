/**
 * The checks every HTTP request passes before `pincer serve` allocates anything for it: Host
 * (DNS rebinding), Origin (a web page), the bearer token, the method, and for a POST the content
 * type and Accept header. A page can send a `text/plain` POST without a preflight, so none of
 * these may cost a server, a transport or a kernel subscription.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Rejection {
  status: number;
  /** JSON-RPC error code of the body. */
  code: number;
  message: string;
  headers?: Record<string, string>;
}

export interface GuardOptions {
  /** Allowed `Host` values; undefined skips the check (a Unix socket has no DNS to rebind). */
  hosts?: readonly string[];
  /** Origins a browser request may come from; a request without Origin is not a browser's. */
  origins: readonly string[];
  /** The bearer token; undefined only under `--no-auth`. */
  token?: string;
}

const METHODS = new Set(['GET', 'POST', 'DELETE']);

export function checkRequest(req: IncomingMessage, options: GuardOptions): Rejection | undefined {
  const host = req.headers.host?.toLowerCase();
  if (options.hosts && (!host || !options.hosts.includes(host))) return forbidden(`Invalid Host header: ${host ?? '(none)'}`);
  const origin = req.headers.origin;
  if (origin !== undefined && !options.origins.includes(origin.toLowerCase())) return forbidden(`Origin not allowed: ${origin}`);
  if (options.token !== undefined && !hasToken(req.headers.authorization, options.token)) {
    return { status: 401, code: -32001, message: 'Unauthorized: send Authorization: Bearer <token> (the token pincer serve printed or wrote to --token-file)', headers: { 'www-authenticate': 'Bearer' } };
  }
  if (!req.method || !METHODS.has(req.method)) return { status: 405, code: -32000, message: 'Method not allowed: use POST, GET or DELETE', headers: { allow: 'GET, POST, DELETE' } };
  if (req.method !== 'POST') return undefined;
  if (mediaType(req.headers['content-type']) !== 'application/json') return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: Accept must list application/json and text/event-stream' };
  }
  return undefined;
}

/** Constant time: both sides are hashed to the same length before comparing. */
export function hasToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

function forbidden(message: string): Rejection {
  return { status: 403, code: -32000, message };
}

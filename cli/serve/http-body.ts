/**
 * Reads the JSON body of a request that has no session yet. Malformed JSON is a parse error
 * (-32700), not "no session"; an oversized body is drained without being kept, so its size costs
 * no memory.
 */
import type { IncomingMessage } from 'node:http';
import type { Rejection } from './http-guard.js';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; rejection: Rejection };

export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= maxBytes) chunks.push(chunk as Buffer);
  }
  if (size > maxBytes) return { ok: false, rejection: { status: 413, code: -32000, message: `Payload Too Large: the body is over ${maxBytes} bytes` } };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, rejection: { status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' } };
  }
}

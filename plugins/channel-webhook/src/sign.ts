/**
 * The signature a receiver checks: `X-Pincer-Signature: sha256=<hex>`, an HMAC-SHA256 over
 * `<timestamp>.<body>` with the shared secret, where `<timestamp>` is `X-Pincer-Timestamp`
 * (unix seconds). Binding the timestamp lets a receiver refuse replays of old deliveries.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-pincer-signature';
export const TIMESTAMP_HEADER = 'x-pincer-timestamp';
export const DELIVERY_HEADER = 'x-pincer-delivery';
export const ATTEMPT_HEADER = 'x-pincer-attempt';

export function signBody(key: Buffer, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
}

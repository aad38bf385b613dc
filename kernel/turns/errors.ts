import type { TurnRefusalReason } from '../../protocol/index.js';

/** A turn, session or task request the kernel refused; `reason` crosses the wire as is. */
export class TurnError extends Error {
  override readonly name = 'TurnError';
  constructor(
    readonly reason: TurnRefusalReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

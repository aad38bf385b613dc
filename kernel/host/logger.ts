import type { LogLevel } from '../../protocol/index.js';

/** One log record of the host or of a plugin (`source` is `plugin:<id>` or `host`). */
export interface HostLogRecord {
  level: LogLevel;
  source: string;
  message: string;
  data?: unknown;
}

/** Where the host sends logs; the embedding kernel plugs its own logger in. */
export type HostLogger = (record: HostLogRecord) => void;

/** Default: warnings and errors to stderr, the rest dropped. */
export const defaultHostLogger: HostLogger = (r) => {
  if (r.level === 'warn' || r.level === 'error') process.stderr.write(`[${r.source}] ${r.level}: ${r.message}\n`);
};

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { LogLevel } from '../../protocol/index.js';
import type { HostLogger } from './logger.js';

const LEVEL_ALIASES: Record<string, LogLevel> = { warning: 'warn', err: 'error', fatal: 'error', critical: 'error', notice: 'info' };

/** Reads the level of a JSON log line (`level`, `@level` or `severity`), as go-plugin does. */
function parseJsonLine(line: string): { level: LogLevel; message: string; data: unknown } | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const obj = JSON.parse(line) as Record<string, unknown>;
    const raw = String(obj.level ?? obj['@level'] ?? obj.severity ?? '').toLowerCase();
    const level = LogLevel.safeParse(LEVEL_ALIASES[raw] ?? raw);
    if (!level.success) return undefined;
    const message = String(obj.message ?? obj.msg ?? obj['@message'] ?? '');
    return { level: level.data, message, data: obj };
  } catch {
    return undefined;
  }
}

/**
 * Forwards a plugin's output stream to the logger, one record per line, tagged `plugin:<id>`.
 * stderr lines default to `warn`, stdout lines to `info`; JSON lines carry their own level.
 */
export function forwardLines(stream: Readable, pluginId: string, defaultLevel: LogLevel, logger: HostLogger): void {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const source = `plugin:${pluginId}`;
  lines.on('line', (line) => {
    if (line.length === 0) return;
    const parsed = parseJsonLine(line);
    logger(parsed ? { source, ...parsed } : { level: defaultLevel, source, message: line });
  });
  stream.on('error', () => undefined); // EPIPE etc. after a crash; the exit handler reports it
}

import type { Readable } from 'node:stream';
import { LogLevel } from '../../protocol/index.js';
import { LineSplitter } from './line-splitter.js';
import type { PluginLogSink } from './plugin-log.js';

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
 * Forwards a plugin's output stream to its log sink, one record per line (lines capped at the
 * sink's byte limit). Lines default to `defaultLevel`; JSON lines carry their own level.
 * Nothing the stream carries can throw out of the handler.
 */
export function forwardLines(stream: Readable, sink: PluginLogSink, defaultLevel: LogLevel): void {
  const splitter = new LineSplitter(sink.limits.maxLineBytes, (line, truncated) => {
    const parsed = truncated ? undefined : parseJsonLine(line);
    if (parsed) sink.write(parsed.level, parsed.message, parsed.data);
    else if (truncated) sink.write(defaultLevel, `${line}… (line cut at ${sink.limits.maxLineBytes} bytes)`);
    else if (line.length > 0) sink.write(defaultLevel, line);
  });
  const guard = (fn: () => void) => () => {
    try {
      fn();
    } catch (error) {
      sink.kernel('error', `could not forward this plugin's output: ${(error as Error)?.message ?? error}`);
    }
  };
  stream.on('data', (chunk: Buffer | string) => guard(() => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk))());
  stream.on('end', guard(() => splitter.end()));
  stream.on('error', () => undefined); // EPIPE etc. after a crash; the exit handler reports it
}

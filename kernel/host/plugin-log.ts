/**
 * One plugin's way into the kernel's log. Everything a plugin says (stdout and stderr lines,
 * `$/log` records) passes here: escaped so it stays one line that cannot pose as another
 * source, capped in size, rate-limited per plugin, and never able to throw into the caller.
 */
import type { LogLevel } from '../../protocol/index.js';
import { escapeForTerminal } from './escape.js';
import type { HostLogger } from './logger.js';

export interface PluginLogLimits {
  /** Longest line (and `$/log` message) kept, in bytes; longer ones are cut. */
  maxLineBytes: number;
  /** Sustained records per second; a burst of `burst` is allowed on top. */
  recordsPerSecond: number;
  burst: number;
}

export const DEFAULT_PLUGIN_LOG_LIMITS: PluginLogLimits = Object.freeze({ maxLineBytes: 8 * 1024, recordsPerSecond: 200, burst: 1_000 });

const DATA_LIMITS = { depth: 4, entries: 32, chars: 512, nodes: 200 };

/** A bounded, escaped copy of a record's `data`, so a `$/log` payload cannot be huge or carry control characters. */
export function sanitizeLogData(data: unknown): unknown {
  let nodes = 0;
  const copy = (value: unknown, depth: number): unknown => {
    if (++nodes > DATA_LIMITS.nodes) return '…';
    if (typeof value === 'string') return escapeForTerminal(value, { maxChars: DATA_LIMITS.chars });
    if (value === null || typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? String(value) : value;
    if (depth >= DATA_LIMITS.depth) return Array.isArray(value) ? '[…]' : '{…}';
    if (Array.isArray(value)) return value.slice(0, DATA_LIMITS.entries).map((v) => copy(v, depth + 1));
    const out: Record<string, unknown> = Object.create(null); // a "__proto__" key stays a plain key
    let kept = 0;
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (++kept > DATA_LIMITS.entries) break; // without listing every key of a huge object first
      out[escapeForTerminal(key, { maxChars: 64 })] = copy((value as Record<string, unknown>)[key], depth + 1);
    }
    return out;
  };
  return copy(data, 0);
}

export class PluginLogSink {
  readonly source: string;
  private tokens: number;
  private refilledAt: number;
  private dropped = 0;
  private reportTimer: NodeJS.Timeout | undefined;

  constructor(
    pluginId: string,
    private readonly logger: HostLogger,
    readonly limits: PluginLogLimits = DEFAULT_PLUGIN_LOG_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.source = `plugin:${pluginId}`;
    this.tokens = limits.burst;
    this.refilledAt = now();
  }

  /** A record from the plugin: escaped, capped and counted against its rate. */
  write(level: LogLevel, message: string, data?: unknown): void {
    if (!this.take()) {
      this.dropped += 1;
      this.reportTimer ??= setTimeout(() => this.reportDropped(), 1_000).unref();
      return;
    }
    // A little slack over the line cap, so the note on a line cut by the splitter survives.
    const text = escapeForTerminal(message, { maxChars: this.limits.maxLineBytes + 64 });
    this.emit({ level, source: this.source, message: text, ...(data === undefined ? {} : { data: sanitizeLogData(data) }) });
  }

  /** The kernel's own record about this plugin (not rate-limited; its text is already the kernel's). */
  kernel(level: LogLevel, message: string): void {
    this.emit({ level, source: this.source, message });
  }

  private take(): boolean {
    const now = this.now();
    const { recordsPerSecond, burst } = this.limits;
    this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) / 1_000) * recordsPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private reportDropped(): void {
    this.reportTimer = undefined;
    if (this.dropped === 0) return;
    const count = this.dropped;
    this.dropped = 0;
    this.emit({ level: 'warn', source: this.source, message: `dropped ${count} log records over the rate limit of ${this.limits.recordsPerSecond}/s` });
  }

  // An embedding host's logger that throws must not take the kernel down from a stream handler.
  private emit(record: Parameters<HostLogger>[0]): void {
    try {
      this.logger(record);
    } catch {
      // nothing sensible to do: the logger itself is broken
    }
  }
}

import type { Readable } from 'node:stream';
import type { OutputTranscript } from './transcript.js';

/**
 * What a backend must provide for the shared shell workspace: start a POSIX `sh` script
 * inside the sandbox with positional arguments and optional stdin. Everything else
 * (path guard, file operations, caps, timeouts, process-group kill) is built on top of it,
 * which is what makes docker and ssh give the same results.
 */
export interface SandboxShellBackend {
  /** Human label used in errors (`docker container pincer-sbx-…`, `ssh root@host`). */
  readonly label: string;
  spawn(request: SpawnRequest): Promise<SpawnedCommand>;
}

export interface SpawnRequest {
  /** The script, run as `sh -c <script> pincer <args…>`. */
  script: string;
  args: readonly string[];
  /** Keep stdin open for `writeStdin`; otherwise it is closed at start. */
  stdin: boolean;
}

export interface SpawnedCommand {
  stdout: Readable;
  stderr: Readable;
  /** Write stdin, then close it (half-close) unless `keepOpen`: an open stdin is the exec wrapper's lifeline. */
  writeStdin(data: Buffer, options?: { keepOpen?: boolean }): void;
  /**
   * Settles when the process is gone: its exit code, or null when it was killed or the
   * sandbox vanished (`gone` says which; a backend rejects only on transport failure).
   */
  exit: Promise<{ exitCode: number | null; gone?: boolean }>;
  /** Tear down the transport (stream/channel). Does not by itself kill remote processes. */
  destroy(): void;
}

export interface ShellRunRequest {
  script: string;
  args?: readonly string[];
  stdin?: Buffer;
  timeoutMs?: number;
  /** Cap on captured stdout+stderr; the rest is drained and dropped. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /**
   * The exec wrapper: it prints `__PINCER_PID__<pgid>` on stderr first and can be group-killed,
   * may print the stray-process marker last, and its stdin stays open after `stdin` (its lifeline).
   */
  killable?: boolean;
  /** Receives the output as it arrives instead of the returned buffers (which stay empty). */
  transcript?: OutputTranscript;
}

export interface ShellRunResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  /** True once the wrapped command started (its pid marker was seen). */
  started: boolean;
  durationMs: number;
  /** The wrapper killed processes the command left running in its group. */
  strayProcessesKilled: boolean;
}

/**
 * What a command receives: its streams, environment and a way to reach the kernel. Passing this
 * explicitly (no globals, no `process` inside commands) lets tests run a command in-process with
 * captured streams and a fake kernel.
 */
import { createColors, shouldColor, type Colors } from './format/color.js';
import type { KernelApi } from './kernel.js';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** What interactive commands read answers from (`pincer init` on a terminal). */
export type InStream = NodeJS.ReadableStream & { isTTY?: boolean };

export interface CliContext {
  stdout: OutStream;
  stderr: OutStream;
  /** Absent in tests and embeddings that never prompt. */
  stdin?: InStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colours for stdout; stderr has its own, since one may be a pipe and the other a terminal. */
  colors: Colors;
  errColors: Colors;
  /** Resolved lazily so `--help` and usage errors never load the kernel. */
  kernelApi(): Promise<KernelApi>;
  version: string;
}

export interface Command {
  name: string;
  summary: string;
  /** Full `--help` text. */
  help: string;
  /** Returns the exit code; throws CliError for failures. */
  run(ctx: CliContext, argv: string[]): Promise<number>;
}

export function createContext(init: {
  stdout: OutStream;
  stderr: OutStream;
  stdin?: InStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  kernelApi: () => Promise<KernelApi>;
  version: string;
}): CliContext {
  return {
    ...init,
    colors: createColors(shouldColor(init.stdout, init.env)),
    errColors: createColors(shouldColor(init.stderr, init.env)),
  };
}

/** Writes a line (or lines) to stdout. */
export function out(ctx: CliContext, text = ''): void {
  ctx.stdout.write(`${text}\n`);
}

/** Writes a line to stderr. */
export function err(ctx: CliContext, text = ''): void {
  ctx.stderr.write(`${text}\n`);
}

/** Scripts read exactly one JSON document from stdout. */
export function outJson(ctx: CliContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Terminal width for truncation; undefined for pipes, which get full lines. */
export function terminalWidth(ctx: CliContext): number | undefined {
  return ctx.stdout.isTTY && ctx.stdout.columns ? ctx.stdout.columns : undefined;
}

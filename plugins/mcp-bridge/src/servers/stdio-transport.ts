/**
 * The client side of a stdio MCP server, as the bridge runs it: spawned through the lifeline
 * (its own process group, killed with the bridge), with only an allow-listed environment, and
 * stopped group-wide: stdin closed → grace → SIGTERM → grace → SIGKILL. Lines that are not
 * JSON-RPC are reported (rate-limited), never fatal; a line over the size cap is dropped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from './line-reader.js';
import { TailBuffer } from './tail-buffer.js';

/**
 * The compiled lifeline, found from the package root rather than beside this module: the bridge's
 * entry is bundled (scripts/bundle-entries.mjs), so this code may run from a shared chunk.
 */
const LIFELINE = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'plugins', 'mcp-bridge', 'src', 'servers', 'lifeline.js');
})();

/** What a server inherits from the bridge's environment when its config names nothing else. */
export const SERVER_INHERITED_ENV = Object.freeze(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ']);

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  /** Largest message accepted from the server, in bytes. */
  maxMessageBytes: number;
  /** A line that is not a JSON-RPC message, or an oversized one (already rate-limited). */
  onNoise?(message: string): void;
  graceMs?: number;
}

/** The environment of a server: the allow-list, then `passEnv` names, then fixed values. */
export function serverEnv(source: NodeJS.ProcessEnv, passEnv: readonly string[], fixed: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...SERVER_INHERITED_ENV, ...passEnv]) {
    const value = source[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value; // no exported shell functions
  }
  return { ...env, ...fixed };
}

export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderrTail = new TailBuffer(20, 4000);
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #closed = false;

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(): Promise<void> {
    const { launch } = this;
    const child = spawn(process.execPath, [LIFELINE, launch.command, ...launch.args], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      env: launch.env,
      cwd: launch.cwd,
      detached: true, // its own process group: one signal reaches the server and all it started
      windowsHide: true,
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.on('error', (error) => this.onerror?.(error));
    child.once('exit', (code, signal) => {
      if (!this.#closed) this.onerror?.(new Error(`the server process ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${this.stderrTail.describe()}`));
    });
    child.once('close', () => this.#finish());
    child.stdin!.on('error', (error) => this.onerror?.(error));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.stderrTail.push(chunk));
    const reader = new LineReader(launch.maxMessageBytes, launch.onNoise);
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of reader.push(chunk)) this.#deliver(line);
    });
  }

  #deliver(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return this.launch.onNoise?.(`a line that is not JSON: ${JSON.stringify(line.slice(0, 120))}`);
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) return this.launch.onNoise?.(`a JSON line that is not a JSON-RPC message: ${JSON.stringify(line.slice(0, 120))}`);
    this.onmessage?.(message.data);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server and everything in its group; resolves when the process is gone. */
  async close(): Promise<void> {
    const child = this.#child;
    if (this.#closed || !child) return this.#finish();
    this.#closed = true;
    const grace = this.launch.graceMs ?? 2000;
    child.stdin?.end();
    if (!(await this.#exitsWithin(grace))) {
      this.#signalGroup('SIGTERM');
      if (!(await this.#exitsWithin(grace))) this.#signalGroup('SIGKILL');
    }
    await this.#exited;
    // Strays the server left in its group (the lifeline only reaps them on a normal exit).
    this.#signalGroup('SIGKILL');
  }

  /** Kills the server's whole group at once (a crash-looping or flooding server). */
  kill(): void {
    this.#closed = true;
    this.#signalGroup('SIGKILL');
  }

  #signalGroup(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone
    }
  }

  #exitsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.#exited!.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]).finally(() => clearTimeout(timer));
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#closed = true;
    this.onclose?.();
  }
  #finished = false;
}

/**
 * A hostile "kernel" for fuzzing the SDK: it starts a built SDK plugin the way kernel/host/spawn.ts
 * does (the cookie, PINCER_PLUGIN_ID, PINCER_KERNEL_PID, fd 3 a socket pair, its own process
 * group), writes whatever frames it is given on fd 3, and reads the plugin's answers by id. It
 * answers the plugin's own requests (workspace/*) with what `answerPluginRequest` returns.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { KERNEL_PID_ENV, PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE, PLUGIN_ID_ENV, TRANSPORT_ENV } from '../../protocol/index.js';
import type { Frame } from './frames.js';

type Message = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown; result?: unknown; error?: unknown };

export interface HostileKernel {
  child: ChildProcess;
  stderr(): string;
  write(frames: readonly Frame[]): void;
  /** Sends a request with an id of our own and waits for its answer (or `timeoutMs`). */
  request(method: string, params?: unknown, timeoutMs?: number): Promise<Message | 'no answer'>;
  /** Closes fd 3 and stdin, as the kernel does after the $/shutdown answer. */
  close(): void;
  /** How the process ended, once it has (or 'running' after `ms`). */
  exit(ms: number): Promise<{ code: number | null; signal: string | null } | 'running'>;
  /** What to answer the plugin's own requests with (default: a WorkspaceError). */
  answerPluginRequest: (msg: Message) => string;
  kill(): void;
}

let next = 0;

export function startHostileKernel(entry: string, pluginId: string): HostileKernel {
  const child = spawn(process.execPath, [entry], {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, [PLUGIN_ID_ENV]: pluginId, [KERNEL_PID_ENV]: String(process.pid), [TRANSPORT_ENV]: 'fd3' },
    detached: true,
  });
  const rpc = child.stdio[3] as unknown as Duplex;
  rpc.on('error', () => undefined); // writes after the plugin exited
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr.length < 256 * 1024 && (stderr += chunk.toString())));
  child.stdout!.resume();
  const waiting = new Map<string, (msg: Message) => void>();
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let buffer = '';
  const kernel: HostileKernel = {
    child,
    stderr: () => stderr,
    write(frames) {
      for (const frame of frames) rpc.write('raw' in frame ? frame.raw : Buffer.from(frame.b64, 'base64'));
    },
    request(method, params, timeoutMs = 5_000) {
      const id = `k-${++next}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => (waiting.delete(id), resolve('no answer')), timeoutMs);
        waiting.set(id, (msg) => (clearTimeout(timer), resolve(msg)));
        rpc.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`);
      });
    },
    close: () => {
      rpc.end();
      child.stdin!.end();
    },
    exit: (ms) => Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms))]),
    answerPluginRequest: (msg) => `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32008, message: 'no workspace here', data: { code: 'NOT_FOUND' } } })}\n`,
    kill: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    },
  };
  rpc.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let msg: Message;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        continue; // the plugin's own garbage would be the kernel's problem, not this suite's
      }
      if (typeof msg.id === 'string' && waiting.has(msg.id) && msg.method === undefined) waiting.get(msg.id)!(msg);
      else if (msg.method !== undefined && msg.id !== undefined) rpc.write(kernel.answerPluginRequest(msg));
    }
  });
  return kernel;
}

/** A valid handshake, as a kernel sends it. */
export const HANDSHAKE = { protocolVersions: [1], kernel: { name: 'pincer', version: '0.1.0' }, capabilities: { progress: true, log: true }, settings: {} };

/**
 * A child running a fixture plugin, driven by a bare vscode-jsonrpc connection with no kernel in
 * between: the yardstick for host- and kernel-mediated calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import { Handshake, PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE, ToolInvoke, createStreamTransport } from '../../protocol/index.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/plugins');
export const ECHO_PLUGIN = path.join(FIXTURES, 'echo.js');
/** One `echo` tool and nothing else: no hooks, so a kernel call adds no hook round trips. */
export const PLAIN_PLUGIN = path.join(FIXTURES, 'plain.js');
/** One `<id>_echo` tool and nothing else, so several copies can serve one run. */
export const NAMED_ECHO_PLUGIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/named-echo.js');
const quiet = () => undefined;

export interface BareChild {
  /** One `tools/invoke` of `echo`; rejects unless the plugin echoed the arguments. */
  call(args?: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

/** Checks an echo answer, so no benchmark silently measures an error path. */
export function assertEchoed(result: unknown, args: Record<string, unknown>): void {
  const text = (result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;
  if (text !== JSON.stringify(args)) throw new Error(`echo answered ${JSON.stringify(result)?.slice(0, 200)}`);
}

/** Default: the hook-free `plain` fixture; `tool` names the echo tool of another fixture. */
export async function startBareChild(plugin: { module: string; id: string; tool?: string } = { module: PLAIN_PLUGIN, id: 'plain' }): Promise<BareChild> {
  const child: ChildProcess = spawn(process.execPath, [plugin.module], {
    stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH, [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, PINCER_PLUGIN_ID: plugin.id },
  });
  const pipe = child.stdio[3] as unknown as Duplex;
  const transport = createStreamTransport(pipe, pipe, { peer: 'bench child' });
  const conn: MessageConnection = createMessageConnection(transport.reader, transport.writer, { error: quiet, warn: quiet, info: quiet, log: quiet });
  conn.listen();
  await conn.sendRequest(Handshake.type, { protocolVersions: [1], kernel: { name: 'bench', version: '0' }, capabilities: {}, settings: {} });
  const defaults = { a: 1 };
  return {
    call: async (args = defaults) => {
      const result = await conn.sendRequest(ToolInvoke.type, { name: plugin.tool ?? 'echo', arguments: args });
      assertEchoed(result, args);
      return result;
    },
    close: () => {
      conn.dispose();
      child.kill('SIGKILL');
    },
  };
}

/**
 * A child running the echo fixture plugin, driven by a bare vscode-jsonrpc connection with
 * no kernel in between: the yardstick for assembly and for kernel-mediated calls.
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
const quiet = () => undefined;

export interface BareChild {
  call(): Promise<unknown>;
  close(): void;
}

/** Default: the hook-free `plain` fixture; pass `ECHO_PLUGIN` to mirror a host running `echo`. */
export async function startBareChild(plugin: { module: string; id: string } = { module: PLAIN_PLUGIN, id: 'plain' }): Promise<BareChild> {
  const child: ChildProcess = spawn(process.execPath, [plugin.module], {
    stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH, [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, PINCER_PLUGIN_ID: plugin.id },
  });
  const pipe = child.stdio[3] as unknown as Duplex;
  const transport = createStreamTransport(pipe, pipe, { peer: 'bench child' });
  const conn: MessageConnection = createMessageConnection(transport.reader, transport.writer, { error: quiet, warn: quiet, info: quiet, log: quiet });
  conn.listen();
  await conn.sendRequest(Handshake.type, { protocolVersions: [1], kernel: { name: 'bench', version: '0' }, capabilities: {}, settings: {} });
  return {
    call: () => conn.sendRequest(ToolInvoke.type, { name: 'echo', arguments: { a: 1 } }),
    close: () => {
      conn.dispose();
      child.kill('SIGKILL');
    },
  };
}

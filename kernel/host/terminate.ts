import type { MessageConnection } from 'vscode-jsonrpc/node';
import { Shutdown } from '../../protocol/index.js';
import { isChannelClosed } from './channel-state.js';
import type { PluginTimeouts } from './config.js';
import { killGroup, unregisterProcessGroup } from './exit-hook.js';
import type { SpawnedPlugin } from './spawn.js';

export type TerminationStep = 'shutdown' | 'pipe-closed' | 'sigterm' | 'sigkill';

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  new Promise((resolve) => {
    const t = setTimeout(() => resolve('timeout'), ms);
    void p.then((v) => {
      clearTimeout(t);
      resolve(v);
    }, () => {
      clearTimeout(t);
      resolve('timeout');
    });
  });

/** `$/shutdown`, with a synchronous throw of the library (a connection closing meanwhile) as a rejection. */
function sendShutdown(conn: MessageConnection): Promise<unknown> {
  try {
    return conn.sendRequest(Shutdown.type, { reason: 'kernel stopping' });
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Escalating shutdown: `$/shutdown` → close the pipe → grace → SIGTERM the group → grace →
 * SIGKILL the group. Finally SIGKILLs the group even after a clean exit, so that grandchildren
 * left in it die too. Returns the step that ended the process.
 */
export async function terminatePlugin(
  proc: SpawnedPlugin,
  conn: MessageConnection | undefined,
  timeouts: Pick<PluginTimeouts, 'shutdownGraceMs' | 'killGraceMs'>,
): Promise<TerminationStep> {
  const exited = proc.exited.then(() => 'exited' as const);
  let step: TerminationStep = 'shutdown';
  // A closed channel takes no $/shutdown (the library throws at once): straight to the signals.
  if (conn && isChannelClosed(conn)) conn = undefined;
  if (conn) await within(sendShutdown(conn), timeouts.shutdownGraceMs);
  proc.rpcOut.end();
  if ((proc.rpcIn as unknown) !== proc.rpcOut) proc.child.stdin?.end(); // fd3: stdin close is a second "go away" signal
  if ((await within(exited, conn ? timeouts.shutdownGraceMs : 0)) === 'timeout') {
    step = 'sigterm';
    killGroup(proc.pid, 'SIGTERM');
    if ((await within(exited, timeouts.killGraceMs)) === 'timeout') {
      step = 'sigkill';
      killGroup(proc.pid, 'SIGKILL');
      await within(exited, 5_000);
    }
  } else if (!conn) step = 'pipe-closed';
  killGroup(proc.pid, 'SIGKILL');
  unregisterProcessGroup(proc.pid);
  return step;
}

/** Immediate kill of the whole group (fatal protocol errors, crash clean-up). */
export async function killPlugin(proc: SpawnedPlugin): Promise<void> {
  killGroup(proc.pid, 'SIGKILL');
  await within(proc.exited, 5_000);
  killGroup(proc.pid, 'SIGKILL');
  unregisterProcessGroup(proc.pid);
}

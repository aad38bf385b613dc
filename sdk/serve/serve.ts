import net from 'node:net';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  KERNEL_PID_ENV,
  PLUGIN_COOKIE_ENV,
  PLUGIN_COOKIE_VALUE,
  RPC_FD,
  TRANSPORT_ENV,
  createStreamTransport,
  type MessageTransport,
} from '../../protocol/index.js';
import type { PluginDefinition } from '../plugin/types.js';
import { bindPlugin, type BindOptions, type PluginRuntime } from './bind.js';
import { routeConsoleToStderr } from './console.js';
import { ownGroupKiller } from './process-group.js';
import { startParentWatchdog } from './watchdog.js';

/** What a plugin started by hand prints before exiting non-zero. */
function startedByHandMessage(plugin: PluginDefinition): string {
  return [
    `This is Pincer plugin "${plugin.id}" ${plugin.version}. It is not meant to be run by hand:`,
    'a Pincer kernel starts it and talks to it over a private pipe.',
    `To use it, add it to the kernel config, e.g. plugins: [{ "id": "${plugin.id}", "module": "${process.argv[1] ?? '<path to this file>'}" }].`,
    'To test it without a kernel, use createPluginTestHarness() from "pincer/sdk/testing".',
  ].join('\n');
}

function openTransport(plugin: PluginDefinition): MessageTransport {
  const protocolOut = routeConsoleToStderr();
  const options = { peer: 'kernel', maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES };
  if (process.env[TRANSPORT_ENV] === 'stdio') return createStreamTransport(process.stdin, protocolOut, options);
  try {
    const socket = new net.Socket({ fd: RPC_FD, readable: true, writable: true });
    return createStreamTransport(socket, socket, options);
  } catch (cause) {
    throw new Error(`plugin "${plugin.id}": fd ${RPC_FD} (the RPC pipe) is not open; was it started by a Pincer kernel?`, { cause });
  }
}

/**
 * Serves a plugin on the pipe its kernel opened: handshake, dispatch, shutdown.
 * The process exits when the pipe closes, after `$/shutdown`, or when the kernel dies.
 * @since 1
 */
export function serve(plugin: PluginDefinition, options: Pick<BindOptions, 'protocolVersions'> = {}): PluginRuntime {
  if (process.env[PLUGIN_COOKIE_ENV] !== PLUGIN_COOKIE_VALUE) {
    process.stderr.write(startedByHandMessage(plugin) + '\n');
    process.exit(1);
  }
  // Once the kernel is gone our stderr may be a broken pipe: a failed log write must not crash us.
  process.stderr.on('error', () => undefined);
  const kernelPid = Number(process.env[KERNEL_PID_ENV]) || undefined;
  const killGroup = ownGroupKiller(kernelPid); // decided now, while the kernel's group still exists
  // The kernel kills our process group once it is done with us; if it died, nobody will, so every
  // way out kills the group (children included) ourselves. Pending writes flush first.
  const exit = (code: number): void => {
    setImmediate(() => {
      killGroup?.();
      process.exit(code);
    });
  };
  const transport = openTransport(plugin);
  const runtime = bindPlugin(plugin, transport, {
    ...options,
    // The kernel closes the pipe after our answer; exit anyway if it does not.
    onShutdown: () => setTimeout(() => exit(0), 1_000).unref(),
  });
  startParentWatchdog({
    kernelPid,
    onOrphaned: (why) => {
      process.stderr.write(`plugin "${plugin.id}": ${why}; killing its process group and exiting\n`);
      exit(2);
    },
  });
  void runtime.closed.then(() => exit(0));
  if (process.env[TRANSPORT_ENV] !== 'stdio') {
    // fd3: the kernel also closes our stdin on shutdown; treat that as "go away" too.
    process.stdin.on('end', () => exit(0)).on('error', () => undefined).resume();
  }
  return runtime;
}

/**
 * Runs a stdio MCP server as the leader of its own process group, tied to the bridge by a
 * lifeline: fd 3 is a pipe whose other end only the bridge holds. When it closes (the bridge
 * exited, crashed or was SIGKILLed with its own group), the whole group of the server is killed,
 * so no server, and nothing it started, outlives the bridge. The server itself inherits stdin,
 * stdout and stderr: no byte of the MCP stream passes through this process.
 *
 *   node lifeline.js <command> [args...]     (started by the bridge, never by hand)
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';

const [command, ...args] = process.argv.slice(2);
const killGroup = (signal: NodeJS.Signals): void => {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // the group is already gone
  }
};

if (!command) {
  process.stderr.write('lifeline: usage: lifeline <command> [args...] (started by the Pincer MCP bridge)\n');
  process.exit(2);
}

// The bridge stops a server with SIGTERM to the group: the server gets it, this process waits for it.
process.on('SIGTERM', () => undefined);
process.on('SIGINT', () => undefined);

const lifeline = new net.Socket({ fd: 3, readable: true, writable: false });
lifeline.on('data', () => undefined);
for (const event of ['end', 'close', 'error'] as const) lifeline.on(event, () => killGroup('SIGKILL'));

const child = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit'] });
child.on('error', (error) => {
  process.stderr.write(`cannot start the MCP server command "${command}": ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  // Whatever the server left behind in the group goes with it (this process ignores SIGTERM).
  killGroup('SIGTERM');
  const signalNumber = signal ? (constants.signals[signal] ?? 0) : 0;
  process.exit(code ?? 128 + signalNumber);
});

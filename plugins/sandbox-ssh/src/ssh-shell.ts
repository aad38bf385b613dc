import { PassThrough } from 'node:stream';
import { toShellCommandLine } from '../../../sdk/sandbox/shell/quote.js';
import type { SandboxShellBackend, SpawnRequest, SpawnedCommand } from '../../../sdk/sandbox/shell/types.js';
import type { SshConnection } from './connection.js';

/** Runs scripts on the remote host over an exec channel (`sh -c` with quoted arguments). */
export class SshShell implements SandboxShellBackend {
  readonly label: string;

  constructor(private readonly connection: SshConnection) {
    this.label = connection.label;
  }

  async spawn(request: SpawnRequest): Promise<SpawnedCommand> {
    const { channel } = await this.connection.exec(toShellCommandLine(request.script, request.args));
    if (!request.stdin) channel.end();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    channel.pipe(stdout);
    channel.stderr.pipe(stderr);
    const exit = new Promise<{ exitCode: number | null; gone?: boolean }>((resolve) => {
      let code: number | null | undefined;
      channel.once('exit', (c: number | null) => { code = c; });
      // No exit status before close: the connection dropped under the command.
      channel.once('close', () => resolve(code === undefined ? { exitCode: null, gone: true } : { exitCode: code }));
    });
    return {
      stdout,
      stderr,
      exit,
      // An open stdin is the exec wrapper's lifeline: it closes when the connection does.
      writeStdin: (data, options = {}) => { if (options.keepOpen) channel.write(data); else channel.end(data); },
      destroy: () => { channel.destroy(); },
    };
  }
}

import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { SandboxShellBackend, SpawnRequest, SpawnedCommand } from '../../../sdk/sandbox/shell/types.js';
import { demuxDockerStream } from './demux.js';
import { toSandboxError } from './engine-errors.js';

/**
 * Runs scripts in a container with `docker exec` through the engine API (no CLI):
 * demuxed output, stdin over the hijacked connection, exit code from exec inspect.
 */
export class DockerShell implements SandboxShellBackend {
  readonly label: string;

  constructor(private readonly container: Docker.Container, name: string, private readonly user?: string) {
    this.label = `docker container ${name}`;
  }

  async spawn(request: SpawnRequest): Promise<SpawnedCommand> {
    let stream: Duplex;
    let exec: Docker.Exec;
    try {
      exec = await this.container.exec({
        Cmd: ['sh', '-c', request.script, 'pincer', ...request.args],
        AttachStdin: request.stdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        User: this.user,
      });
      stream = (await exec.start({ hijack: request.stdin, stdin: request.stdin })) as Duplex;
    } catch (error) {
      throw toSandboxError(error, `exec in ${this.label}`);
    }
    const { stdout, stderr } = demuxDockerStream(stream);
    const ended = new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', () => resolve());
    });
    const exit = ended.then(async () => {
      try {
        const info = await exec.inspect();
        const code = info.Running === false && typeof info.ExitCode === 'number' ? info.ExitCode : null;
        if (code !== null && code < 128) return { exitCode: code };
        // Killed by a signal or cut off: tell a killed command from a vanished container.
        // The engine marks a killed container stopped a moment after its processes die.
        let running = true;
        for (let i = 0; i < 4 && running; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 100));
          running = await this.container.inspect().then((c) => c.State.Running && !c.State.Restarting, () => false);
        }
        return { exitCode: code, gone: !running };
      } catch {
        return { exitCode: null, gone: true };
      }
    });
    return {
      stdout,
      stderr,
      exit,
      writeStdin(data: Buffer, options = {}) {
        stream.write(data);
        // half-close: the engine forwards EOF to the process's stdin (kept open: the exec wrapper's lifeline)
        if (!options.keepOpen) stream.end();
      },
      destroy() {
        stream.destroy();
      },
    };
  }
}

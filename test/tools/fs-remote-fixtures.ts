import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import Docker from 'dockerode';
import type { WorkspaceService } from '../../protocol/index.js';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings, tempDir } from '../sandbox/services.js';
import type { FsFixture } from './fs-fixtures.js';

/** This run's containers and remote directories, so cleanup never touches another run's. */
const RUN = `fs-tools-${process.pid}-${randomBytes(3).toString('hex')}`;
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A fixture over a sandbox the test cannot reach from the host (Docker, SSH): files are
 * put with the backend's own write and inspected with commands run in the sandbox.
 * One sandbox serves a whole test file; each test leaves it empty for the next.
 */
function shellFixture(name: string, open: () => Promise<WorkspaceService>): () => Promise<FsFixture> {
  let opened: Promise<WorkspaceService> | undefined;
  return async () => {
    const workspace = await (opened ??= open());
    const sh = async (command: string): Promise<string> => {
      const r = await workspace.exec(command, { timeoutMs: 60_000 });
      if (r.exitCode !== 0) throw new Error(`${name}: \`${command}\` failed: ${r.stderr}`);
      return r.stdout;
    };
    return {
      name,
      workspace,
      async put(file, bytes, mode) {
        await workspace.write(file, Buffer.from(bytes).toString('base64'), { encoding: 'base64', mkdirs: true });
        if (mode !== undefined) await sh(`chmod ${mode.toString(8)} ${q(file)}`);
      },
      async bytes(file) {
        const out = await sh(`if [ -f ${q(file)} ]; then base64 < ${q(file)} | tr -d '\\n'; else printf -; fi`);
        return out === '-' ? undefined : Buffer.from(out, 'base64');
      },
      async mode(file) {
        const out = (await sh(`stat -L -c %a ${q(file)} 2>/dev/null || true`)).trim();
        return out === '' ? undefined : parseInt(out, 8);
      },
      symlink: async (target, file) => void (await sh(`ln -s ${q(target)} ${q(file)}`)),
      async list() {
        const out = await sh(`find . -mindepth 1 -type d | sed 's|$|/|'; find . -mindepth 1 -type l | sed 's|$|@|'; find . -mindepth 1 -type f`);
        return out.split('\n').filter(Boolean).map((l) => l.replace(/^\.\//, '')).sort();
      },
      // The next test of the file starts from an empty workspace again.
      cleanup: async () => void (await sh('find . -mindepth 1 -maxdepth 1 -exec rm -rf {} +')),
    };
  };
}

/** Host directories behind this run's sandboxes, removed with them. */
const hostDirs: string[] = [];
const hostDir = (name: string): string => {
  hostDirs.push(tempDir(name));
  return hostDirs[hostDirs.length - 1] as string;
};

export const dockerFixture = shellFixture('docker', async () => {
  const config = resolveSandboxConfig({ scope: 'session', workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: 'pincer-fs-tools-' } });
  // Not the shared test label: other suites remove every container carrying it, at any time.
  const sandbox = new DockerSandbox({ config, labels: { 'pincer.fs-tools-run': RUN } });
  return DockerWorkspace.open(sandbox, { sessionKey: RUN, agentId: 'main', workspaceDir: hostDir('fs-tools-docker') });
});

let ssh: SshWorkspace | undefined;
export const sshFixture = shellFixture('ssh', async () => {
  ssh = await SshWorkspace.open(sshSettings(), { sessionKey: RUN, agentId: 'main', workspaceDir: hostDir('fs-tools-ssh'), workspaceAccess: 'rw' });
  return ssh;
});

/** Remove this run's container and remote copy, nothing else. */
export async function closeRemoteFixtures(): Promise<void> {
  if (ssh !== undefined) {
    await ssh.exec(`rm -rf ${ssh.copies.map((h) => q(h.copy.target.copyDir)).join(' ')}`).catch(() => undefined);
    await ssh.close();
  }
  if (HAS_DOCKER) {
    const docker = new Docker();
    const mine = await docker.listContainers({ all: true, filters: { label: [`pincer.fs-tools-run=${RUN}`] } }).catch(() => []);
    await Promise.all(mine.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  }
  for (const dir of hostDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The remote backends this machine has (in CI both must be there: services.ts fails the run otherwise). */
export const REMOTE_FIXTURES: [string, () => Promise<FsFixture>][] = [
  ...(HAS_DOCKER ? [['docker backend', dockerFixture] as [string, () => Promise<FsFixture>]] : []),
  ...(HAS_SSH ? [['ssh backend', sshFixture] as [string, () => Promise<FsFixture>]] : []),
];

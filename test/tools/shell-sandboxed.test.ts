import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import type { WorkspaceService } from '../../protocol/index.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { makeWorkspace } from '../sandbox/fixtures.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';

/** The exec wrapper inside a container and on an ssh host: input, lifeline, strays, paths, env, caps. */

const PREFIX = `pincer-shexec-${process.pid}-`;
const docker = { ws: undefined as DockerWorkspace | undefined };
const ssh = { ws: undefined as SshWorkspace | undefined };

beforeAll(async () => {
  if (HAS_DOCKER) {
    const sandbox = new DockerSandbox({ config: resolveSandboxConfig({ scope: 'session', workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: PREFIX } }), labels: { 'pincer.shexec': String(process.pid) } });
    docker.ws = await DockerWorkspace.open(sandbox, { sessionKey: `shexec-${process.pid}`, agentId: 'main', workspaceDir: makeWorkspace() });
  }
  if (HAS_SSH) ssh.ws = await SshWorkspace.open(sshSettings({ remoteRoot: `/tmp/${PREFIX}ssh` }), { sessionKey: `shexec-${process.pid}`, agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' });
}, 120_000);
afterAll(async () => {
  await ssh.ws?.close();
  await docker.ws?.handle.container.remove({ force: true }).catch(() => undefined);
});

for (const [name, holder, enabled] of [['docker', docker, HAS_DOCKER], ['ssh', ssh, HAS_SSH]] as const) {
  describe.runIf(enabled)(`exec inside the sandbox (${name})`, () => {
    const ws = (): WorkspaceService => holder.ws!;

    it('hands the command its input and an end of file, while the lifeline stays open', async () => {
      const r = await ws().exec('cat; echo "[eof seen]"', { stdin: 'line one\nline two' });
      expect(r).toMatchObject({ exitCode: 0, stdout: 'line one\nline two[eof seen]\n' });
      expect((await ws().exec('cat | wc -c')).stdout.trim()).toBe('0');
    });

    it('kills processes the command left running and says so', async () => {
      const r = await ws().exec('sleep 920001 & echo started');
      expect(r).toMatchObject({ exitCode: 0, stdout: 'started\n', strayProcessesKilled: true });
      expect(r.stderr).toBe('');
      const listed = await ws().exec('(ps -e -o args 2>/dev/null || ps -o args) | grep -c "sleep 92000[1]"');
      expect(listed.stdout.trim()).toBe('0');
      expect(await ws().exec('echo quiet')).not.toHaveProperty('strayProcessesKilled');
    });

    it('takes back as cwd the directory the command reported, and reports it', async () => {
      const first = await ws().exec('cd src && pwd');
      const seen = first.stdout.trim();
      for (const cwd of [seen, 'src', '/workspace/src']) {
        const r = await ws().exec('pwd; ls', { cwd });
        expect(r.stdout).toBe(`${seen}\na.ts\n`);
        expect(r.cwd).toBe(seen);
      }
      await expect(ws().exec('pwd', { cwd: '/etc' })).rejects.toMatchObject({ code: expect.stringMatching(/PATH_OUTSIDE_MOUNT|PATH_NOT_ADMITTED/) });
    });

    it('runs without a terminal, an editor or a pager', async () => {
      expect((await ws().exec('echo "$TERM $PAGER $GIT_PAGER $EDITOR $GIT_EDITOR"')).stdout).toBe('dumb cat cat true true\n');
    });

    it('keeps the start and the end of a flood, in arrival order', async () => {
      const r = await ws().exec('echo FIRST; head -c 2000000 /dev/zero | tr "\\0" x; echo; sleep 0.2; echo LAST >&2', { maxOutputBytes: 64 * 1024 });
      expect(r.truncated).toBe(true);
      expect(r.output?.[0]).toMatchObject({ stream: 'stdout', text: expect.stringMatching(/^FIRST\n/) });
      expect(r.output?.some((s) => s.stream === 'omitted')).toBe(true);
      expect(r.output?.at(-1)).toEqual({ stream: 'stderr', text: 'LAST\n' });
    });
  });
}

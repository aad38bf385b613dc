import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceService } from '../../protocol/v1/workspace-types.js';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { makeWorkspace } from './fixtures.js';
import Docker from 'dockerode';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from './services.js';

// Its own label: cleaning up must not remove the containers of test files running beside it.
const RUN = `parity-${process.pid}`;

/** One script of operations; its transcript must be identical on every backend. */
async function transcript(ws: WorkspaceService): Promise<unknown[]> {
  const out: unknown[] = [];
  const step = async (name: string, f: () => Promise<unknown>) => {
    try {
      out.push([name, await f()]);
    } catch (e) {
      out.push([name, 'error', (e as { code?: string }).code]);
    }
  };
  // Times and versions (device and inode numbers) differ between hosts; versions are compared as present.
  const noTime = <T extends object>(v: T) =>
    JSON.parse(JSON.stringify(v, (k, x) => (k === 'mtimeMs' || k === 'durationMs' || k === 'cwd' ? undefined : k === 'version' ? typeof x : x)));
  await step('read', async () => noTime(await ws.read('hello.txt')));
  await step('read-b64', async () => noTime(await ws.read('hello.txt', { encoding: 'base64' })));
  await step('read-cap', () => ws.read('hello.txt', { maxBytes: 3 }));
  await step('write', () => ws.write('out/new.txt', 'ünïcode\nline2', { mkdirs: true }));
  await step('write-nomk', () => ws.write('missing/x.txt', 'x'));
  await step('readback', async () => noTime(await ws.read('/workspace/out/new.txt')));
  await step('stat-file', async () => noTime(await ws.stat('out/new.txt')));
  await step('stat-dir', async () => { const s = await ws.stat('src'); return [s.isDirectory, s.isFile, s.path]; });
  await step('stat-link', async () => noTime(await ws.stat('inner-link')));
  await step('stat-missing', () => ws.stat('nope'));
  await step('list', async () => (await ws.readDirectory('.')).map((e) => [e.name, e.isFile, e.isDirectory]));
  await step('mkdir', () => ws.mkdir('a/b/c', { recursive: true }));
  await step('mkdir-exists', () => ws.mkdir('a'));
  await step('rename', () => ws.rename('out/new.txt', 'a/b/c/moved.txt'));
  await step('read-moved', async () => (await ws.read('a/b/c/moved.txt')).content);
  await step('remove-nonempty', () => ws.remove('a'));
  await step('remove-rec', () => ws.remove('a', { recursive: true }));
  await step('remove-root', () => ws.remove('/workspace', { recursive: true }));
  // The pauses make the arrival order certain: across stdout and stderr, writes microseconds apart may arrive either way round.
  await step('exec', async () => noTime(await ws.exec('echo out; sleep 0.2; echo err >&2; sleep 0.2; cat; exit 3', { stdin: 'in', env: { FOO: 'bar' } })));
  await step('exec-env', async () => (await ws.exec('printf %s "$FOO"', { env: { FOO: "it's" } })).stdout);
  await step('exec-cwd', async () => (await ws.exec('ls', { cwd: 'src' })).stdout);
  await step('traversal', () => ws.read('../../etc/passwd'));
  await step('link-escape', () => ws.read('etc-link/passwd'));
  await step('skills-write', () => ws.write('skills/demo/SKILL.md', 'x'));
  await step('protected-write', () => ws.write('.git/hooks/pre-commit', 'x', { mkdirs: true }));
  await step('protected-rename', () => ws.rename('hello.txt', '.git'));
  await step('stale-version', async () => {
    const { version } = await ws.read('hello.txt');
    await ws.write('hello.txt', 'changed\n');
    return ws.write('hello.txt', 'lost update\n', { expectVersion: version });
  });
  await step('create-only', () => ws.write('hello.txt', 'x', { createOnly: true }));
  await step('new-mode', async () => { await ws.write('m.sh', 'x', { mode: 0o750 }); return (await ws.stat('m.sh')).mode; });
  await step('nul-path', () => ws.read('a\0b'));
  return out;
}

describe.skipIf(!HAS_DOCKER || !HAS_SSH)('parity: docker and ssh give the same results', () => {
  let docker: WorkspaceService;
  let ssh: SshWorkspace;
  beforeAll(async () => {
    const sandbox = new DockerSandbox({ config: resolveSandboxConfig({ scope: 'session', workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: 'pincer-parity-' } }), labels: { 'pincer.test.run': RUN } });
    const fences = { protectedPaths: ['.git', 'pincer.config.json'] };
    docker = await DockerWorkspace.open(sandbox, { sessionKey: `parity-${process.pid}`, agentId: 'main', workspaceDir: makeWorkspace() }, fences);
    ssh = await SshWorkspace.open(sshSettings(), { sessionKey: `parity-${process.pid}`, agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' }, fences);
  });
  afterAll(async () => {
    await ssh?.close();
    const engine = new Docker();
    const mine = await engine.listContainers({ all: true, filters: { label: [`pincer.test.run=${RUN}`] } });
    await Promise.all(mine.map((c) => engine.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  });

  it('runs the same file operations and commands with identical results', async () => {
    const [d, s] = [await transcript(docker), await transcript(ssh)];
    expect(s).toEqual(d);
    expect(d).toContainEqual(['read-cap', 'error', 'FILE_TOO_LARGE']);
    expect(d).toContainEqual(['traversal', 'error', 'PATH_OUTSIDE_MOUNT']);
    expect(d).toContainEqual(['protected-write', 'error', 'PROTECTED_PATH']);
    expect(d).toContainEqual(['stale-version', 'error', 'CONFLICT']);
  }, 90_000); // about 50 sandbox round trips; a loaded machine needs more than the default 30 s
});

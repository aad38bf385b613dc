import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceService } from '../../protocol/v1/workspace-types.js';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { makeWorkspace } from './fixtures.js';
import { HAS_DOCKER, HAS_SSH, RUN_LABEL, TEST_IMAGE, removeTestContainers, sshSettings } from './services.js';

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
  const noTime = <T extends object>(v: T) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'mtimeMs' || k === 'durationMs' ? undefined : x)));
  await step('read', () => ws.read('hello.txt'));
  await step('read-b64', () => ws.read('hello.txt', { encoding: 'base64' }));
  await step('read-cap', () => ws.read('hello.txt', { maxBytes: 3 }));
  await step('write', () => ws.write('out/new.txt', 'ünïcode\nline2', { mkdirs: true }));
  await step('write-nomk', () => ws.write('missing/x.txt', 'x'));
  await step('readback', () => ws.read('/workspace/out/new.txt'));
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
  await step('exec', async () => noTime(await ws.exec('echo out; echo err >&2; cat; exit 3', { stdin: 'in', env: { FOO: 'bar' } })));
  await step('exec-env', async () => (await ws.exec('printf %s "$FOO"', { env: { FOO: "it's" } })).stdout);
  await step('exec-cwd', async () => (await ws.exec('ls', { cwd: 'src' })).stdout);
  await step('traversal', () => ws.read('../../etc/passwd'));
  await step('link-escape', () => ws.read('etc-link/passwd'));
  await step('skills-write', () => ws.write('skills/demo/SKILL.md', 'x'));
  return out;
}

describe.skipIf(!HAS_DOCKER || !HAS_SSH)('parity: docker and ssh give the same results', () => {
  let docker: WorkspaceService;
  let ssh: SshWorkspace;
  beforeAll(async () => {
    const sandbox = new DockerSandbox({ config: resolveSandboxConfig({ scope: 'session', workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: 'pincer-parity-' } }), labels: RUN_LABEL });
    docker = await DockerWorkspace.open(sandbox, { sessionKey: `parity-${process.pid}`, agentId: 'main', workspaceDir: makeWorkspace() });
    ssh = await SshWorkspace.open(sshSettings(), { sessionKey: `parity-${process.pid}`, agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' });
  });
  afterAll(async () => { await ssh?.close(); await removeTestContainers(); });

  it('runs the same file operations and commands with identical results', async () => {
    const [d, s] = [await transcript(docker), await transcript(ssh)];
    expect(s).toEqual(d);
    expect(d).toContainEqual(['read-cap', 'error', 'FILE_TOO_LARGE']);
    expect(d).toContainEqual(['traversal', 'error', 'PATH_OUTSIDE_MOUNT']);
  });
});

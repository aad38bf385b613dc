import { chmodSync, copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_DOCKER } from '../sandbox/services.js';
import { REPO, ensureBuilt, pincer, writeConfig } from './helpers/built-cli.js';

/**
 * `pincer config check` and `pincer sandbox check` judge a config as the first call would
 * (plugin entries, every agent's docker sandbox security), and `pincer sandbox image build`
 * builds an image through the engine. The built bin, real files, the real engine.
 */
const dir = mkdtempSync(join(tmpdir(), 'pincer-config-check-'));
const dockerModule = join(REPO, 'dist/plugins/sandbox-docker/src/main.js');
const check = async (file: string, cwd = dir) => pincer(['config', 'check', '--json', '--config', file], { cwd });
type Report = { ok: boolean; issues: Array<{ path: string; message: string }>; warnings: Array<{ path: string; message: string }> };

describe('pincer config check judges what the first call would refuse', () => {
  beforeAll(() => ensureBuilt());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports every refused sandbox setting with the config path that causes it', async () => {
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'sandbox-docker', module: dockerModule, settings: { docker: { capDrop: [] } } });
      c.agents.defaults = { sandbox: { mode: 'all', docker: { network: 'host' } } };
      c.agents.list = [{ id: 'main', default: true, workspace: dir, sandbox: { docker: { binds: [`${dir}:/ok`, '/etc:/host-etc:ro'] } } }];
    }, 'refused.json');
    const { code, stdout } = await check(file);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => i.path)).toEqual(['agents.list[0].sandbox.docker.binds[1]', 'agents.defaults.sandbox.docker.network', 'plugins[4].settings.docker.capDrop']);
    expect(report.issues[0]!.message).toContain('bind mount "/etc:/host-etc:ro" targets blocked path "/etc"');
    const human = await pincer(['config', 'check', '--config', file], { cwd: dir });
    expect(human.stdout).toMatch(/✗ .*refused\.json: 3 problems\n\s+agents\.list\[0\]\.sandbox\.docker\.binds\[1\]\s+Sandbox security: bind mount/);
  });

  it('reports a bundled backend id another plugin claims, and an id two plugins declare, from their manifests (19.2)', async () => {
    const manifest = (id: string, backend: string) => {
      const file = join(dir, `${id}.manifest.json`);
      writeFileSync(file, JSON.stringify({ id, version: '1.0.0', protocolVersion: 1, contributes: { sandboxBackends: [{ id: backend, capabilities: ['read'] }] } }));
      return { id, module: join(REPO, 'dist/test/fixtures/plugins/session-probe.js'), manifest: file, lazy: true };
    };
    const file = await writeConfig(dir, (c) => {
      c.plugins.push(manifest('claimer', 'local'), manifest('twin-a', 'remote'), manifest('twin-b', 'Remote'));
      c.agents.list[0].plugins = ['fs', 'sandbox-local', 'claimer'];
      c.agents.list.push({ id: 'twins', workspace: dir, plugins: ['fs', 'twin-a', 'twin-b'] });
    }, 'backends.json');
    const { code, stdout } = await check(file);
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as Report).issues).toEqual([
      { path: 'agents.list[0].plugins', message: expect.stringContaining('plugin "claimer" declares the bundled sandbox backend "local", which belongs to "sandbox-local"') },
      { path: 'agents.list[1].plugins', message: expect.stringContaining('plugins "twin-a" and "twin-b" both declare the sandbox backend "remote" for agent "twins"') },
    ]);
  });

  it('judges a bind whose source is a dangling symlink by where it points', async () => {
    const ws = mkdtempSync(join(dir, 'ws-'));
    symlinkSync('/etc/pincer-nope', join(ws, 'data'));
    const file = await writeConfig(dir, (c) => {
      c.agents.list = [{ id: 'main', default: true, workspace: ws, sandbox: { mode: 'all', docker: { binds: [`${ws}/data:/data`] } } }];
    }, 'dangling.json');
    const report = JSON.parse((await check(file)).stdout) as Report;
    expect(report.issues).toEqual([{ path: 'agents.list[0].sandbox.docker.binds[0]', message: expect.stringContaining('source resolves to "/etc/pincer-nope"') }]);
  });

  it('names every dangerous override in effect as a warning, and a misspelt one as an error', async () => {
    const ok = await writeConfig(dir, (c) => {
      c.agents.list = [{ id: 'main', default: true, workspace: dir, sandbox: { mode: 'all', docker: { readOnlyRoot: false, dangerouslyAllowWritableRoot: true } } }];
    }, 'override.json');
    const { code, stdout } = await check(ok);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, issues: [], warnings: [{ path: 'agents.list[0].sandbox.docker.dangerouslyAllowWritableRoot', message: expect.stringContaining('root filesystem may be writable') }] });
    expect((await pincer(['config', 'check', '--config', ok], { cwd: dir })).stdout).toMatch(/! 1 dangerous override in effect:\n\s+agents\.list\[0\]\.sandbox\.docker\.dangerouslyAllowWritableRoot/);
    const typo = await writeConfig(dir, (c) => {
      c.agents.list = [{ id: 'main', default: true, workspace: dir, sandbox: { mode: 'all', docker: { readOnlyRoot: false, dangerouslyAllowWritableroot: true } } }];
    }, 'typo.json');
    const report = JSON.parse((await check(typo)).stdout) as Report;
    expect(report.issues).toEqual([{ path: 'agents.list[0].sandbox.docker.dangerouslyAllowWritableroot', message: expect.stringMatching(/Unrecognized key/) }]);
  });

  it('refuses an empty container prefix, which would match every Pincer container', async () => {
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'sandbox-docker', module: dockerModule, settings: { docker: { containerPrefix: '' } } });
    }, 'empty-prefix.json');
    const report = JSON.parse((await check(file)).stdout) as Report;
    expect(report.issues).toEqual([{ path: 'plugins[4].settings.docker.containerPrefix', message: expect.stringContaining('non-empty') }]);
    const list = await pincer(['sandbox', 'list', '--config', file], { cwd: dir });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('containerPrefix');
  });

  it('resolves every plugin\'s module or command, relative paths against the config file\'s folder', async () => {
    const sub = mkdtempSync(join(dir, 'cfg-'));
    writeFileSync(join(sub, 'plugin.sh'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(sub, 'plugin.sh'), 0o755);
    const file = await writeConfig(sub, (c) => {
      c.plugins.push({ id: 'local-script', command: ['./plugin.sh'] });
      c.plugins.push({ id: 'gone', module: 'missing/main.js' });
      c.plugins.push({ id: 'nowhere', command: ['pincer-no-such-program'] });
    }, 'plugins.json');
    // Run from another folder: ./plugin.sh still resolves against the config's folder.
    const report = JSON.parse((await check(file, dir)).stdout) as Report;
    expect(report.issues).toEqual([
      { path: 'plugins[5].module', message: expect.stringContaining(`no file at ${join(sub, 'missing/main.js')}`) },
      { path: 'plugins[6].command[0]', message: expect.stringContaining('"pincer-no-such-program" is not an executable on PATH') },
    ]);
  });

  it('starts a command plugin in its config\'s folder, so the relative paths config check judged are the ones spawned', async () => {
    const sub = mkdtempSync(join(dir, 'py-'));
    copyFileSync(join(REPO, 'examples/python-plugin/plugin.py'), join(sub, 'plugin.py'));
    // The plugin lives beside its config, outside the agent's workspace (plugin code an agent can write is refused).
    const workspace = mkdtempSync(join(tmpdir(), 'pincer-py-ws-'));
    const file = await writeConfig(sub, (c) => {
      c.plugins.push({ id: 'py', command: ['python3', 'plugin.py'] });
      c.agents.list[0].workspace = workspace;
    }, 'py.json');
    expect(JSON.parse((await check(file, dir)).stdout)).toMatchObject({ ok: true, issues: [] });
    const { code, stdout } = await pincer(['plugins', '--json', '--config', file], { cwd: dir });
    expect(code, stdout).toBe(0);
    expect(JSON.parse(stdout).plugins.find((p: { id: string }) => p.id === 'py')).toMatchObject({ state: 'ready' });
  });

  it('fails sandbox check for a plugin whose module or command does not resolve, in the words config check uses', async () => {
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'gone', module: 'missing/main.js' }, { id: 'nowhere', command: ['pincer-no-such-program'] });
    }, 'unresolved.json');
    const json = await pincer(['sandbox', 'check', '--json', '--config', file], { cwd: dir });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { ok: boolean; plugins: Array<{ path: string; message: string }> };
    expect(report).toMatchObject({ ok: false, backends: [] });
    expect(report.plugins).toEqual([
      { path: 'plugins[4].module', message: expect.stringContaining(`no file at ${join(dir, 'missing/main.js')}`) },
      { path: 'plugins[5].command[0]', message: expect.stringContaining('"pincer-no-such-program" is not an executable on PATH') },
    ]);
    const human = await pincer(['sandbox', 'check', '--config', file], { cwd: dir });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/✗ plugins: 2 cannot start\n\s+✗ plugins\[4\]\.module\s+plugin "gone": no file at /);
  });

  it('fails sandbox check at its security step, before touching the engine', async () => {
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'sandbox-docker', module: dockerModule, settings: { docker: { user: '0:0' } } });
      c.agents.list = [{ id: 'main', default: true, workspace: dir, sandbox: { mode: 'all' } }];
    }, 'root-user.json');
    const { code, stdout } = await pincer(['sandbox', 'check', '--json', '--config', file], { cwd: dir, env: { DOCKER_HOST: `unix://${join(dir, 'no.sock')}` } });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, backends: [{ backend: 'docker', checks: [{ name: 'security', ok: false, code: 'SECURITY_VIOLATION', detail: expect.stringContaining('plugins[4].settings.docker.user: Sandbox security: user "0:0" runs the sandbox as root') }] }] });
  });
});

describe.skipIf(!HAS_DOCKER)('pincer sandbox image build (real engine)', () => {
  const docker = new Docker();
  const tag = `pincer-test:built-${process.pid}`;
  const context = mkdtempSync(join(tmpdir(), 'pincer-image-'));
  beforeAll(() => ensureBuilt());
  afterAll(async () => {
    await docker.getImage(tag).remove({ force: true }).catch(() => undefined);
    rmSync(context, { recursive: true, force: true });
  });

  it('builds a Dockerfile through the engine with progress on stderr, and the result on stdout', async () => {
    // The CI engine has no registry access: build on top of the local test image.
    writeFileSync(join(context, 'Dockerfile'), 'FROM pincer-test:busybox\nCOPY marker.txt /marker.txt\n');
    writeFileSync(join(context, 'marker.txt'), 'built by pincer\n');
    const { code, stdout, stderr } = await pincer(['sandbox', 'image', 'build', '--file', join(context, 'Dockerfile'), '--tag', tag], { timeoutMs: 120_000 });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`Building ${tag} from ${join(context, 'Dockerfile')}`);
    expect(stderr).toMatch(/Step 1\/2 : FROM pincer-test:busybox/);
    expect(stdout).toMatch(new RegExp(`^✓ Built ${tag} \\(sha256:[0-9a-f]{12}\\)`));
    expect((await docker.getImage(tag).inspect()).Id).toMatch(/^sha256:/);
  }, 180_000);

  it('fails with exit 1 naming the failed step', async () => {
    writeFileSync(join(context, 'Broken.Dockerfile'), 'FROM pincer-test:busybox\nRUN exit 3\n');
    const { code, stderr } = await pincer(['sandbox', 'image', 'build', '--file', join(context, 'Broken.Dockerfile'), '--tag', `${tag}-broken`], { timeoutMs: 120_000 });
    expect(code).toBe(1);
    expect(stderr).toMatch(/Building pincer-test:built-\d+-broken from .*Broken\.Dockerfile failed: .*returned a non-zero code: 3/);
  }, 180_000);

  it('ships a Dockerfile for the default image, and says how to use it', async () => {
    const { code, stdout } = await pincer(['sandbox', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('image build [--tag T] [--file F]');
    const shipped = await import('../../plugins/sandbox-docker/src/image-build.js');
    expect(shipped.shippedDockerfile()).toBe(join(REPO, 'plugins/sandbox-docker/image/Dockerfile'));
  });
});

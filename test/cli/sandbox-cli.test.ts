import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/index.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { JsonFileSandboxRegistry } from '../../sdk/sandbox/registry.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';
import { REPO, ensureBuilt, pincer, writeConfig } from './helpers/built-cli.js';

/**
 * `pincer sandbox …` as an operator runs it: the built bin against the real Docker engine.
 * Containers get a per-run prefix and label (not the shared `pincer.test` label, which other
 * suites' cleanup removes while this file may still be running).
 */
const PREFIX = 'pincer-cli-';
/** This run's own deployment: the CLI acts only on containers labelled with it. */
const DEPLOYMENT = `c${process.pid}`;
const LABELS = { 'pincer.clitest': String(process.pid) };
const MISSING_IMAGE = `pincer-test:missing-${process.pid}`;
const docker = new Docker();

async function removeOurContainers(): Promise<void> {
  const list = await docker.listContainers({ all: true, filters: { label: [`pincer.clitest=${process.pid}`] } }).catch(() => []);
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
}

const pluginModule = (id: string) => join(REPO, 'dist/plugins', id, 'src/main.js');

describe('pincer sandbox without an engine', () => {
  beforeAll(() => ensureBuilt());

  it('prints its help with every subcommand and flag, and exits 0', async () => {
    const { code, stdout } = await pincer(['sandbox', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: pincer sandbox <subcommand>/);
    for (const word of ['list', 'recreate --session S | --agent A | --all', 'prune [--idle-hours N] [--max-age-days N]', 'check [--agent A]', '--json']) expect(stdout).toContain(word);
  });
});

describe.skipIf(!HAS_DOCKER)('pincer sandbox on the real Docker engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pincer-sandbox-cli-'));
  const registryPath = join(dir, 'state', 'containers.json');
  let configFile: string;
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => pincer(['sandbox', ...args, '--config', configFile], { cwd: dir, env, timeoutMs: 60_000 });
  const listJson = async () => JSON.parse((await run(['list', '--json'])).stdout) as { sandboxes: Array<{ name: string; scopeKey: string; configMatches: boolean | null; lastUsedAt: string | null; state: string }> };

  /** The CLI must merge plugin settings (prefix, registry, deployment) with agents.defaults.sandbox.docker (image). */
  const writeSandboxConfig = (name: string, defaultsDocker: Record<string, unknown>, pluginDocker: Record<string, unknown> = {}, workspace = dir) =>
    writeConfig(dir, (config) => {
      config.plugins.push({ id: 'sandbox-docker', module: pluginModule('sandbox-docker'), inheritEnv: ['DOCKER_HOST'], settings: { deploymentId: DEPLOYMENT, docker: { containerPrefix: PREFIX, ...pluginDocker }, registryPath } });
      config.agents.defaults = { sandbox: { mode: 'all', scope: 'session', workspaceAccess: 'rw', docker: defaultsDocker } };
      config.agents.list = [{ id: 'main', default: true, workspace }, { id: 'ops', workspace }];
    }, name);
  const sandboxFor = (workspace: string) => {
    const config = resolveSandboxConfig({ deploymentId: DEPLOYMENT, docker: { containerPrefix: PREFIX } }, { scope: 'session', workspaceAccess: 'rw', docker: { image: TEST_IMAGE } });
    return { sandbox: new DockerSandbox({ config, labels: LABELS, registry: new JsonFileSandboxRegistry(registryPath) }), workspace };
  };

  beforeAll(async () => {
    ensureBuilt();
    configFile = await writeSandboxConfig('pincer.config.json', { image: TEST_IMAGE });
    // The containers the kernel would create for three sessions, with the config the CLI reads.
    const { sandbox } = sandboxFor(dir);
    for (const [sessionKey, agentId] of [['cli:a', 'main'], ['cli:b', 'main'], ['cli:c', 'ops']]) {
      await sandbox.ensureContainer({ sessionKey, agentId, workspaceDir: dir });
    }
  }, 120_000);

  afterAll(async () => {
    await removeOurContainers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every container of the config with its scope key, agent, image, state and a matching config hash', async () => {
    const { code, stdout, stderr } = await run(['list']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^NAME\s+SCOPE KEY\s+AGENT\s+IMAGE\s+STATE\s+CREATED\s+LAST USED\s+CONFIG\n/);
    for (const [key, agent] of [['cli:a', 'main'], ['cli:b', 'main'], ['cli:c', 'ops']]) {
      expect(stdout).toMatch(new RegExp(`\\n${PREFIX}${DEPLOYMENT}-\\S+\\s+${key}\\s+${agent}\\s+${TEST_IMAGE}\\s+running\\s+\\d+s ago\\s+\\d+s ago\\s+yes`));
    }
    const { sandboxes } = await listJson();
    expect(sandboxes.map((s) => s.scopeKey).sort()).toEqual(['cli:a', 'cli:b', 'cli:c']);
    expect(sandboxes.every((s) => s.configMatches === true && s.lastUsedAt !== null && s.state === 'running')).toBe(true);
  });

  it('flags containers that run an older config after the docker settings change', async () => {
    const changed = await writeSandboxConfig('changed.json', { image: TEST_IMAGE, env: { EXTRA: '1' } });
    const { code, stdout } = await pincer(['sandbox', 'list', '--json', '--config', changed], { cwd: dir });
    expect(code).toBe(0);
    const { sandboxes } = JSON.parse(stdout) as { sandboxes: Array<{ configMatches: boolean | null }> };
    expect(sandboxes).toHaveLength(3);
    expect(sandboxes.every((s) => s.configMatches === false)).toBe(true);
  });

  it('recreates exactly the container of one session and says how many it removed', async () => {
    const { code, stdout } = await run(['recreate', '--session', 'cli:a']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Removed 1 sandbox container \\(${PREFIX}${DEPLOYMENT}-cli-a-[0-9a-f]{24}\\); each is created fresh on next use\\.`));
    expect((await listJson()).sandboxes.map((s) => s.scopeKey).sort()).toEqual(['cli:b', 'cli:c']);
  });

  it('prunes the container idle longer than --idle-hours and keeps the one used recently', async () => {
    // Age cli:b's last use by two hours in the registry the plugin (and the CLI) read.
    const registry = new JsonFileSandboxRegistry(registryPath);
    const idle = registry.list().find((e) => e.scopeKey === 'cli:b')!;
    registry.set({ ...idle, lastUsedAtMs: Date.now() - 2 * 3_600_000 });
    const { code, stdout } = await run(['prune', '--idle-hours', '1', '--max-age-days', '0', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ rule: { idleHours: 1, maxAgeDays: 0 }, removed: [idle.name] });
    expect((await listJson()).sandboxes.map((s) => s.scopeKey)).toEqual(['cli:c']);
    expect((await run(['prune', '--idle-hours', '1', '--max-age-days', '0'])).stdout).toBe('Nothing to prune (idle > 1h).\n');
  });

  it('recreates by agent, then reports an empty list', async () => {
    const { code, stdout } = await run(['recreate', '--agent', 'ops', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ target: { agent: 'ops' }, removed: [expect.stringContaining(`${PREFIX}${DEPLOYMENT}-cli-c-`)] });
    expect((await run(['list'])).stdout).toBe('No sandbox containers.\n');
  });

  it('leaves another configuration\'s containers alone on recreate --all, though they share the prefix and deployment', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'pincer-sandbox-cli-other-'));
    const other = await writeSandboxConfig('other.json', { image: TEST_IMAGE }, {}, elsewhere);
    const theirs = await sandboxFor(elsewhere).sandbox.ensureContainer({ sessionKey: 'cli:other', agentId: 'main', workspaceDir: elsewhere });
    try {
      const mine = await sandboxFor(dir).sandbox.ensureContainer({ sessionKey: 'cli:d', agentId: 'main', workspaceDir: dir });
      const { code, stdout } = await run(['recreate', '--all', '--json']);
      expect(code).toBe(0);
      expect(JSON.parse(stdout).removed).toEqual([mine.plan.name]);
      expect((await theirs.container.inspect()).State.Running).toBe(true);
      const listedByOther = JSON.parse((await pincer(['sandbox', 'list', '--json', '--config', other], { cwd: dir })).stdout) as { sandboxes: Array<{ name: string }> };
      expect(listedByOther.sandboxes.map((s) => s.name)).toEqual([theirs.plan.name]);
    } finally {
      await theirs.container.remove({ force: true }).catch(() => undefined);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('passes the self-test on a healthy engine with the configured image', async () => {
    const { code, stdout } = await run(['check']);
    expect(code).toBe(0);
    expect(stdout).toContain('✓ docker: ok');
    expect(stdout).toMatch(/✓ security\s+binds, network, profiles, capabilities and user pass the security validation/);
    expect(stdout).toMatch(/✓ engine\s+docker engine answers at unix:\/\/\//);
    expect(stdout).toMatch(new RegExp(`✓ image\\s+image ${TEST_IMAGE} present`));
    expect(stdout).toMatch(/✓ protected-paths\s+root filesystem and skills are read-only/);
  }, 60_000);

  it('fails the self-test closed with exit 1 and names a missing image', async () => {
    const missing = await writeSandboxConfig('missing-image.json', { image: MISSING_IMAGE });
    const { code, stdout } = await pincer(['sandbox', 'check', '--config', missing], { cwd: dir });
    expect(code).toBe(1);
    expect(stdout).toContain('✗ docker: FAILED');
    // The endpoint as a socket address, never the client's lazy socket-finder function.
    expect(stdout).toMatch(/✓ engine\s+docker engine answers at unix:\/\/\/\S+docker\.sock\n/);
    expect(stdout).not.toContain('function');
    expect(stdout).toMatch(new RegExp(`✗ image\\s+Sandbox image "${MISSING_IMAGE}" is not present`));
    expect(stdout).toContain(`pincer sandbox image build --tag ${MISSING_IMAGE}`);
    const json = await pincer(['sandbox', 'check', '--json', '--config', missing], { cwd: dir });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, backends: [{ backend: 'docker', ok: false, checks: [{ name: 'security', ok: true }, { name: 'engine', ok: true }, { name: 'image', ok: false, code: 'IMAGE_MISSING' }] }] });
  });

  it('explains an unreachable engine with its socket and the fix, and exits 1', async () => {
    const socket = join(dir, 'no-docker.sock');
    for (const args of [['list'], ['check']]) {
      const { code, stdout, stderr } = await run(args, { DOCKER_HOST: `unix://${socket}` });
      expect(code, args[0]).toBe(1);
      expect(`${stdout}${stderr}`, args[0]).toContain(`Docker engine unreachable at unix://${socket}`);
      expect(`${stdout}${stderr}`, args[0]).toContain('bash scripts/services/start-docker.sh');
      expect(`${stdout}${stderr}`, args[0]).not.toContain('../');
    }
  });

  it('refuses recreate without exactly one selector and a flag another subcommand owns, with exit 2', async () => {
    expect((await run(['recreate'])).code).toBe(2);
    expect((await run(['recreate', '--all', '--session', 'x'])).code).toBe(2);
    const { code, stderr } = await run(['list', '--idle-hours', '1']);
    expect(code).toBe(2);
    expect(stderr).toContain("flag '--idle-hours' does not apply to 'pincer sandbox list'");
  });

  it.skipIf(!HAS_SSH)('checks the ssh backend by connecting, and fails closed on an untrusted host key', async () => {
    const sshConfig = (name: string, knownHostsPaths?: string[]) =>
      writeConfig(dir, (config) => {
        config.plugins.push({ id: 'sandbox-ssh', module: pluginModule('sandbox-ssh'), settings: { ssh: sshSettings(knownHostsPaths ? { knownHostsPaths } : {}) } });
      }, name);
    const good = await pincer(['sandbox', 'check', '--config', await sshConfig('ssh.json')], { cwd: dir });
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/✓ connect\s+connected and authenticated; host key trusted via known_hosts/);
    const empty = join(dir, 'empty_known_hosts');
    writeFileSync(empty, '');
    const bad = await pincer(['sandbox', 'check', '--config', await sshConfig('ssh-untrusted.json', [empty])], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/✗ host-key\s+Host key of \S+ \(SHA256:\S+\) is not trusted/);
  });
});

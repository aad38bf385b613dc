import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, ensureBuilt, pincer, writeConfig } from '../cli/helpers/built-cli.js';
import { HAS_DOCKER, HAS_SSH, SSH_HOST, SSH_HOST_PUB, SSH_KEY, SSH_PORT, SSH_USER } from '../sandbox/services.js';
import { tempDir } from '../helpers/temp-dir.js';

const fixture = (name: string) => join(REPO, 'dist/test/fixtures/plugins', `${name}.js`);
const DOCKER_MODULE = join(REPO, 'dist/plugins/sandbox-docker/src/main.js');
const SSH_MODULE = join(REPO, 'dist/plugins/sandbox-ssh/src/main.js');

interface Check { section: string; subject: string; status: string; detail: string; fix?: string }

beforeAll(ensureBuilt);

const workspace = () => tempDir('pincer-doctor-');

async function doctor(dir: string, file: string, ...flags: string[]): Promise<{ code: number; checks: Check[]; stdout: string }> {
  const run = await pincer(['doctor', '--json', '--config', file, ...flags], { cwd: dir, timeoutMs: 120_000 });
  return { code: run.code, checks: JSON.parse(run.stdout).checks, stdout: run.stdout };
}

const find = (checks: Check[], section: string, subject: string) => checks.find((c) => c.section === section && c.subject === subject);

describe('pincer doctor', () => {
  it('starts every plugin, lazy ones too, reports each start time and confinement warning, and each skill source as the loader lists it', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'skills/deploy'), { recursive: true });
    // No `name`: the loader takes the directory's, so this is a skill (the old doctor warned).
    writeFileSync(join(dir, 'skills/deploy/SKILL.md'), '---\ndescription: Ships the build\n---\nSteps.\n');
    // An agent can make a FIFO where a SKILL.md belongs; reading it must not hang the doctor.
    mkdirSync(join(dir, 'skills/trap'));
    execFileSync('mkfifo', [join(dir, 'skills/trap/SKILL.md')]);
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'echo', module: fixture('echo') });
      c.plugins.find((p: { id: string }) => p.id === 'fs').dangerouslyUnconfined = true;
    });
    const { code, checks } = await doctor(dir, file);
    expect(code, JSON.stringify(checks, null, 2)).toBe(0);
    expect(find(checks, 'node', 'version')).toMatchObject({ status: 'ok', detail: expect.stringContaining(process.version) });
    for (const id of ['fs', 'shell', 'sandbox-local']) {
      expect(find(checks, 'plugins', id)).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^started in \d+ ms \(lazy: started here to check it\); protocol 1/) });
    }
    // The echo fixture also offers a tool named "read", which only fs may serve: it starts, with a warning.
    expect(find(checks, 'plugins', 'echo')).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^started in \d+ ms; protocol 1, version 1\.0\.0, .*1 tool\(s\) refused: plugin "echo" may not serve "read"/), fix: expect.any(String) });
    expect(find(checks, 'plugins', 'fs confinement')).toMatchObject({ status: 'warn', detail: expect.stringContaining('runs unconfined'), fix: expect.any(String) });
    expect(find(checks, 'backends', 'sandbox')).toMatchObject({ status: 'skip' });
    // Every source the skills plugin contributes (and the echo fixture's own), with its count and watch mode (15.5).
    expect(checks.filter((c) => c.section === 'skills' && !c.subject.includes(':')).map((c) => c.subject).sort()).toEqual(
      ['agents-skills-personal', 'agents-skills-project', 'echo-skills', 'pincer-bundled', 'pincer-extra', 'pincer-managed', 'pincer-workspace'],
    );
    expect(find(checks, 'skills', 'pincer-workspace')).toMatchObject({ status: 'ok', detail: '1 skill(s), 1 excluded; watched (native file watchers)' });
    expect(find(checks, 'skills', 'pincer-bundled')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^[1-9]\d* skill\(s\); watched/) });
    expect(find(checks, 'skills', 'pincer-workspace: trap')).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^excluded \(not-a-file\)/), fix: expect.stringContaining("pincer skills show trap") });

    const strict = await doctor(dir, file, '--strict');
    expect(strict.code).toBe(1);
  });

  it('fails with each broken plugin named, why it does not start, and its fix', async () => {
    const dir = workspace();
    copyFileSync(fixture('echo'), join(dir, 'inside.js'));
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'crashy', module: fixture('crash-on-start') }, { id: 'gone', module: join(dir, 'missing.js') }, { id: 'inside', module: join(dir, 'inside.js') });
    });
    const { code, checks } = await doctor(dir, file);
    expect(code).toBe(1);
    expect(find(checks, 'config', 'plugins[5].module')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`no file at ${join(dir, 'missing.js')}`) });
    expect(find(checks, 'plugins', 'crashy')).toMatchObject({ status: 'fail', detail: expect.stringContaining('does not start') });
    expect(find(checks, 'plugins', 'inside')).toMatchObject({ status: 'fail', detail: expect.stringContaining('PLUGIN_LOCATION_REFUSED'), fix: expect.stringContaining('outside every agent workspace') });
    expect(find(checks, 'plugins', 'fs')).toMatchObject({ status: 'ok' });
  });

  it('reports a config that does not load by path, and skips what depends on it', async () => {
    const dir = workspace();
    const file = join(dir, 'pincer.config.json');
    writeFileSync(file, JSON.stringify({ tools: { profile: 'codng' } }));
    const run = await pincer(['doctor', '--config', file], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ tools\.profile\s+/);
    expect(run.stdout).toContain(`fix: edit ${file}`);
    expect(run.stdout).toContain('not checked: the config does not load');
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify({ tools: { profile: 'codng' } }));
  });

  it.skipIf(!HAS_DOCKER)('checks the docker backend against the real engine: a missing image fails with how to build it', async () => {
    const dir = workspace();
    const file = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'sandbox-docker', module: DOCKER_MODULE, settings: { docker: { image: `pincer-test:absent-${process.pid}` } } });
      c.agents.list[0].sandbox = { mode: 'non-main', backend: 'docker' };
    });
    const { code, checks } = await doctor(dir, file);
    expect(code).toBe(1);
    expect(find(checks, 'backends', 'docker engine')).toMatchObject({ status: 'ok' });
    expect(find(checks, 'backends', 'docker image')).toMatchObject({ status: 'fail', fix: expect.stringContaining('pincer sandbox image build') });
  });

  it.skipIf(!HAS_SSH)('checks the ssh backend against the real sshd: trusted with the key pinned, refused without it', async () => {
    const dir = workspace();
    const ssh = { host: SSH_HOST, port: SSH_PORT, user: SSH_USER, privateKeyPath: SSH_KEY };
    const pinned = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'sandbox-ssh', module: SSH_MODULE, settings: { ssh: { ...ssh, hostKey: readFileSync(SSH_HOST_PUB, 'utf8').trim() } } });
    }, 'pinned.json');
    const good = await doctor(dir, pinned);
    expect(good.code, JSON.stringify(good.checks, null, 2)).toBe(0);
    expect(find(good.checks, 'backends', 'ssh connect')).toMatchObject({ status: 'ok', detail: expect.stringContaining('pinned sandbox.ssh.hostKey') });

    const emptyKnownHosts = join(dir, 'known_hosts');
    writeFileSync(emptyKnownHosts, '');
    const unknown = await writeConfig(dir, (c) => {
      c.plugins.push({ id: 'sandbox-ssh', module: SSH_MODULE, settings: { ssh: { ...ssh, knownHostsPaths: [emptyKnownHosts] } } });
    }, 'unknown.json');
    const bad = await doctor(dir, unknown);
    expect(bad.code).toBe(1);
    expect(find(bad.checks, 'backends', 'ssh host-key')).toMatchObject({ status: 'fail', fix: expect.stringContaining('known_hosts') });
  });
});

/**
 * Where a run's tools work: the built bin refuses `/` and the home directory unless `--workspace`
 * names them, prints the workspace it uses, and never ignores a `--workspace` in silence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, pincer, tempWorkspace, writeConfig } from './helpers/built-cli.js';

beforeAll(() => ensureBuilt());

describe('the workspace of a CLI run', () => {
  const ws = tempWorkspace();
  const elsewhere = mkdtempSync(join(tmpdir(), 'pincer-elsewhere-'));
  afterAll(() => {
    ws.cleanup();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('refuses to read the host from / when the workspace only defaulted to it', async () => {
    const { code, stdout, stderr } = await pincer(['call', 'read', '{"path":"etc/passwd"}'], { cwd: '/' });
    expect(code).toBe(1);
    expect(stdout).not.toContain('root:');
    expect(stderr).toContain('refusing the root directory / as the workspace');
    expect(stderr).toContain('pass --workspace / if you mean it');

    const json = JSON.parse((await pincer(['tools', '--json'], { cwd: '/' })).stdout);
    expect(json.error).toMatchObject({ code: 'UNSAFE_WORKSPACE', workspace: '/' });
  });

  it('accepts / when --workspace names it, and says so', async () => {
    const { code, stdout } = await pincer(['tools', '--workspace', '/'], { cwd: '/' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/· workspace \/ ·/);
  });

  it('refuses the home directory unless --workspace names it', async () => {
    const home = { HOME: ws.dir };
    const refused = await pincer(['call', 'read', '{"path":"hello.txt"}'], { cwd: ws.dir, env: home });
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('hello from pincer');
    expect(refused.stderr).toContain(`refusing the home directory ${ws.dir} as the workspace`);

    const explicit = await pincer(['call', 'read', '{"path":"hello.txt"}', '--workspace', '.'], { cwd: ws.dir, env: home });
    expect(explicit.code).toBe(0);
    expect(explicit.stdout).toContain('hello from pincer');
  });

  it('refuses a folder that holds the home directory, as /home holds every user\'s', async () => {
    const { code, stderr } = await pincer(['call', 'read', '{"path":"hello.txt"}'], { cwd: ws.dir, env: { HOME: join(ws.dir, 'me') } });
    expect(code).toBe(1);
    expect(stderr).toContain(`refusing ${ws.dir}, which contains the home directory ${join(ws.dir, 'me')}, as the workspace`);
  });

  it('runs in --workspace instead of the current directory, and prints it in tools', async () => {
    const call = await pincer(['call', 'read', '{"path":"hello.txt"}', '-w', ws.dir], { cwd: elsewhere });
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('hello from pincer');

    const tools = await pincer(['tools', '--workspace', ws.dir], { cwd: elsewhere });
    expect(tools.stdout).toContain(`· workspace ${ws.dir} ·`);
    const json = JSON.parse((await pincer(['tools', '--json'], { cwd: ws.dir })).stdout);
    expect(json.workspace).toBe(ws.dir);
  });

  it('refuses a --workspace that the config overrides instead of ignoring it', async () => {
    // writeConfig starts from the embedded default, which names ws.dir as the agent's workspace.
    const file = await writeConfig(ws.dir, () => undefined, 'pinned-workspace.json');
    const { code, stderr } = await pincer(['tools', '--config', file, '--workspace', elsewhere], { cwd: ws.dir });
    expect(code).toBe(2);
    expect(stderr).toContain(`--workspace ${elsewhere} does not apply: this agent's workspace is ${ws.dir}`);
  });

  it('names a --workspace that is not a directory', async () => {
    const { code, stderr } = await pincer(['tools', '--workspace', 'missing-dir'], { cwd: ws.dir });
    expect(code).toBe(2);
    expect(stderr).toContain(`--workspace missing-dir: ${join(ws.dir, 'missing-dir')} is not an existing directory`);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, pincer, tempWorkspace, writeConfig } from './helpers/built-cli.js';

beforeAll(() => ensureBuilt());

describe('the built pincer bin, without a kernel', () => {
  it('names an unknown flag and exits 2', async () => {
    const { code, stderr, stdout } = await pincer(['tools', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown flag '--bogus' for 'pincer tools'");
    expect(stdout).toBe('');
  });

  it('names an unknown command and exits 2', async () => {
    const { code, stderr } = await pincer(['frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'frobnicate'");
  });

  it('prints help for every command', async () => {
    for (const command of ['tools', 'explain', 'call', 'plugins', 'config', 'serve']) {
      const { code, stdout } = await pincer([command, '--help']);
      expect(code, command).toBe(0);
      expect(stdout, command).toContain(`Usage: pincer ${command}`);
    }
  });
});

describe('the built pincer bin on the real kernel', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  it('prints the default tool table with the coding tools', async () => {
    const { code, stdout, stderr } = await pincer(['tools'], { cwd: ws.dir });
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect(stdout).toMatch(/NAME\s+PLUGIN\s+DESCRIPTION/);
    expect(stdout).toMatch(/\nread\s+fs\s+\S/);
    expect(stdout).toMatch(/\nexec\s+shell\s+\S/);
  });

  it('prints the tool set as JSON for scripts', async () => {
    const { code, stdout } = await pincer(['tools', '--json'], { cwd: ws.dir });
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    const read = report.tools.find((t: { name: string }) => t.name === 'read');
    expect(read).toMatchObject({ pluginId: 'fs' });
    expect(read.inputSchema.type).toBe('object');
    expect(report.config).toBe('embedded default');
  });

  it('shows a tool denied in config as removed, with its layer and rule, and explains it', async () => {
    const file = await writeConfig(ws.dir, (c) => {
      c.tools = { ...c.tools, deny: ['exec'] };
    }, 'deny-exec.json');
    const tools = await pincer(['tools', '--config', file], { cwd: ws.dir });
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/Removed \(\d+\)/);
    expect(tools.stdout).toMatch(/\nexec\s+global\s+.*deny: exec/);

    const explain = await pincer(['explain', 'exec', '--config', file], { cwd: ws.dir });
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain('exec is not available');
    expect(explain.stdout).toMatch(/✗ global/);
    expect(explain.stdout).toContain('remove "exec" from tools.deny');

    const json = JSON.parse((await pincer(['explain', 'exec', '--config', file, '--json'], { cwd: ws.dir })).stdout);
    expect(json).toMatchObject({ tool: 'exec', present: false, removal: { layer: 'global', ruleKind: 'deny', matchedRules: ['exec'] } });
  });

  it('explains a present tool layer by layer', async () => {
    const { code, stdout } = await pincer(['explain', 'read'], { cwd: ws.dir });
    expect(code).toBe(0);
    expect(stdout).toContain('read is available');
    expect(stdout).toMatch(/✓ profile/);
  });

  it('runs read through the gate on a workspace file', async () => {
    const { code, stdout } = await pincer(['call', 'read', '{"path":"hello.txt"}'], { cwd: ws.dir });
    expect(code).toBe(0);
    expect(stdout).toContain('hello from pincer');
  });

  it('exits non-zero when the call fails, and says why', async () => {
    const { code, stdout, stderr } = await pincer(['call', 'read', '{"path":"../../etc/passwd"}'], { cwd: ws.dir });
    expect(code).toBe(1);
    expect(`${stdout}${stderr}`).not.toContain('root:');
  });

  it('names bad arguments in the Error [CODE] … Hint: shape, not as a validator report', async () => {
    const empty = await pincer(['call', 'read', '{"path":""}'], { cwd: ws.dir });
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain('Error [INVALID_PARAMS]: Invalid arguments for read: path must not be empty.\nHint: Call read again with arguments that match its parameter schema.');
    const wrong = await pincer(['call', 'write', '{"path":5}'], { cwd: ws.dir });
    expect(wrong.stdout).toContain('Error [INVALID_PARAMS]: Invalid arguments for write: path: Invalid input: expected string, received number; content is required (expected string).');
    for (const run of [empty, wrong]) expect(`${run.stdout}${run.stderr}`).not.toMatch(/✖|→ at|"status": "error"/);
  });

  it('finds ./pincer.config.json and $PINCER_CONFIG', async () => {
    await writeConfig(ws.dir, (c) => {
      c.tools = { ...c.tools, deny: ['write'] };
    });
    const local = JSON.parse((await pincer(['tools', '--json'], { cwd: ws.dir })).stdout);
    expect(local.config).toBe(join(ws.dir, 'pincer.config.json'));
    expect(local.removed.map((r: { tool: string }) => r.tool)).toContain('write');

    const viaEnv = await writeConfig(ws.dir, (c) => {
      c.tools = { ...c.tools, deny: ['edit'] };
    }, 'env.json');
    const env = JSON.parse((await pincer(['tools', '--json'], { cwd: ws.dir, env: { PINCER_CONFIG: viaEnv } })).stdout);
    expect(env.removed.map((r: { tool: string }) => r.tool)).toContain('edit');
  });

  it('lists every config problem with its path and exits 1', async () => {
    const file = join(ws.dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ tools: { alow: ['read'], deny: [''] }, agents: { list: [{ id: 'a', tools: { allow: [7] } }] } }));
    const { code, stdout } = await pincer(['config', 'check', file], { cwd: ws.dir });
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ .*bad\.json: \d+ problems/);
    expect(stdout).toMatch(/\n {2}tools\s+.*alow/);
    expect(stdout).toMatch(/\n {2}tools\.deny\[0\]\s+/);
    expect(stdout).toMatch(/\n {2}agents\.list\[0\]\.tools\.allow\[0\]\s+/);

    const json = JSON.parse((await pincer(['config', 'check', file, '--json'], { cwd: ws.dir })).stdout);
    expect(json.ok).toBe(false);
    expect(json.issues.map((i: { path: string }) => i.path)).toContain('agents.list[0].tools.allow[0]');
  });

  it('reads call params from stdin with -', async () => {
    const { code, stdout } = await pincer(['call', 'read', '-'], { cwd: ws.dir, input: '{"path":"hello.txt"}' });
    expect(code).toBe(0);
    expect(stdout).toContain('hello from pincer');
  });

  it('answers --json callers with a JSON error carrying a stable code', async () => {
    const { code, stdout } = await pincer(['tools', '--config', 'nope.json', '--json'], { cwd: ws.dir });
    expect(code).toBe(1);
    expect(JSON.parse(stdout).error).toMatchObject({ code: 'CONFIG', configCode: 'CONFIG_NOT_FOUND' });
  });

  it('reports a missing config file as a config error', async () => {
    const { code, stderr } = await pincer(['tools', '--config', 'nope.json'], { cwd: ws.dir });
    expect(code).toBe(1);
    expect(stderr).toContain('config file not found');
  });

  it('shows plugin health', async () => {
    const { code, stdout } = await pincer(['plugins'], { cwd: ws.dir });
    expect(code).toBe(0);
    expect(stdout).toMatch(/PLUGIN\s+STATE\s+VERSION\s+PROTOCOL\s+RESTARTS\s+TOOLS\s+LAST ERROR/);
    expect(stdout).toMatch(/\nfs\s+/);
    const json = JSON.parse((await pincer(['plugins', '--json'], { cwd: ws.dir })).stdout);
    expect(json.plugins.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(['fs', 'shell']));
  });
});

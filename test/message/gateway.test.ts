import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFileHash, createSystemTool, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { FAST, errorCode, jsonLines, pluginModule, scratchDir, startKernel, textOf } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const SECRETS = ['super-secret-value-123456', 'hunter2', 'abc123token', 'env-secret-999'];

function gatewayConfig(gateway: Record<string, unknown> = {}): PincerConfig {
  return {
    plugins: [
      {
        id: 'hook',
        module: pluginModule('channel-webhook'),
        env: { WEBHOOK_TOKEN: 'env-secret-999' },
        settings: { url: 'https://bot:hunter2@hooks.example.com/in?token=abc123token', secret: 'super-secret-value-123456' },
        timeouts: FAST,
      },
    ],
    tools: { profile: 'messaging', gateway: { enabled: true, ...gateway }, message: { crossSession: false } },
  };
}

describe('the read-only gateway tool', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel(gatewayConfig());
  });
  afterAll(() => kernel.stop());

  const gateway = (params: Record<string, unknown>) => kernel.assembleTools({}).execute('gateway', params);

  it('shows the effective config (defaults filled in) with every secret redacted', async () => {
    const text = textOf(await gateway({ action: 'config.get' }));
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const shown = JSON.parse(text);
    expect(shown.plugins[0].settings.secret).toBe('[redacted]');
    expect(shown.plugins[0].env.WEBHOOK_TOKEN).toBe('[redacted]');
    expect(shown.plugins[0].settings.url).toBe('https://[redacted]@hooks.example.com/in?token=[redacted]');
    expect(shown.plugins[0].timeouts.callMs).toBe(FAST.callMs);
    expect(shown.plugins[0].transport).toBe('fd3'); // a default the operator did not write
  });

  it('returns one subtree for a path, never an unredacted value', async () => {
    expect(JSON.parse(textOf(await gateway({ action: 'config.get', path: 'tools.message' })))).toEqual({ crossSession: false });
    expect(JSON.parse(textOf(await gateway({ action: 'config.get', path: 'plugins[0].settings.secret' })))).toBe('[redacted]');
    for (const bad of ['tools.nothing', '__proto__', 'plugins[0].constructor', 'plugins[9]']) {
      const result = await gateway({ action: 'config.get', path: bad });
      expect(errorCode(result)).toBe('CONFIG_PATH_NOT_FOUND');
      expect(textOf(result)).toContain('config path not found');
    }
  });

  it('looks up the config schema by path, with the children summarized', async () => {
    const found = JSON.parse(textOf(await gateway({ action: 'config.schema.lookup', path: 'tools.message' })));
    expect(found.children.crossSession).toMatchObject({ type: 'boolean', description: expect.stringContaining('a channel other than its own') });
    const sandbox = JSON.parse(textOf(await gateway({ action: 'config.schema.lookup', path: 'agents.list[].sandbox' })));
    expect(sandbox.children.mode.enum).toEqual(['off', 'non-main', 'all']);
    const top = JSON.parse(textOf(await gateway({ action: 'config.schema.lookup', path: '.' })));
    expect(Object.keys(top.children)).toEqual(expect.arrayContaining(['plugins', 'tools', 'agents']));
    expect(errorCode(await gateway({ action: 'config.schema.lookup', path: 'tools.nope' }))).toBe('SCHEMA_PATH_NOT_FOUND');
  });

  it('has no write actions: config.patch, config.apply and restart are unknown here', async () => {
    for (const action of ['config.patch', 'config.apply', 'restart', 'update.run']) {
      const result = await gateway({ action, patch: { tools: { profile: 'full' } }, approved: true });
      expect(errorCode(result)).toBe('UNKNOWN_ACTION');
      expect(textOf(result)).toContain('read-only');
    }
  });

  it('refuses an answer over the size limit and asks for a narrower path', async () => {
    const small = await startKernel(gatewayConfig({ maxResultBytes: 300 }));
    try {
      const toolSet = small.assembleTools({});
      const whole = await toolSet.execute('gateway', { action: 'config.get' });
      expect(errorCode(whole)).toBe('CONFIG_TOO_LARGE');
      expect(textOf(whole)).toContain('use path to request a narrower config subtree');
      expect((await toolSet.execute('gateway', { action: 'config.get', path: 'tools.gateway' })).isError).toBeFalsy();
    } finally {
      await small.stop();
    }
  });

  it('is not offered unless tools.gateway.enabled', async () => {
    const off = await startKernel({ tools: { profile: 'full' } });
    try {
      expect(off.assembleTools({}).tools.map((tool) => tool.name)).not.toContain('gateway');
    } finally {
      await off.stop();
    }
  });
});

describe('the system tool (config writes and restarts)', () => {
  const configPath = path.join(scratch.dir, 'pincer.config.json');
  const auditLogPath = path.join(scratch.dir, 'audit', 'system.jsonl');
  const original = { tools: { profile: 'coding' } };
  const restarts: string[] = [];
  const system = createSystemTool({ configPath, auditLogPath, restart: async (reason) => void restarts.push(reason) });
  const audit = () => jsonLines(auditLogPath);
  const fileText = () => readFileSync(configPath, 'utf8');

  beforeAll(() => writeFileSync(configPath, JSON.stringify(original, null, 2), { mode: 0o640 }));

  it('is never part of a run: no profile, allow list or wildcard reaches it', async () => {
    const kernel = await startKernel({ tools: { profile: 'full', allow: ['*', 'pincer', 'openclaw', 'group:core'] }, agents: { list: [{ id: 'main', tools: { alsoAllow: ['pincer'] } }] } });
    try {
      const toolSet = kernel.assembleTools({});
      expect(toolSet.tools.map((tool) => tool.name)).not.toContain(system.name);
      const call = await toolSet.execute(system.name, { action: 'restart', approved: true });
      expect(call.isError).toBe(true);
      expect(restarts).toEqual([]);
    } finally {
      await kernel.stop();
    }
  });

  it('ignores an approved parameter: without an approval the host armed, nothing changes', async () => {
    const before = fileText();
    const result = await system.execute({ action: 'config.patch', patch: { tools: { profile: 'full' } }, approved: true });
    expect(errorCode(result)).toBe('APPROVAL_REQUIRED');
    expect(fileText()).toBe(before);
    expect(audit().at(-1)).toMatchObject({ action: 'config.patch', decision: 'refused', approvedParamIgnored: true });
  });

  it('refuses an approval written as data, one armed for other params, and one used twice', async () => {
    const params = { action: 'config.patch', patch: { tools: { profile: 'minimal' } } };
    const approval = system.arm(params);
    const forged = JSON.parse(JSON.stringify(approval));
    expect(errorCode(await system.execute(params, { approval: forged }))).toBe('APPROVAL_REQUIRED');
    expect(errorCode(await system.execute({ action: 'config.patch', patch: { tools: { profile: 'full' } } }, { approval }))).toBe('APPROVAL_REQUIRED');
    expect(JSON.parse(fileText())).toEqual(original);

    const done = await system.execute(params, { approval });
    expect(done.isError).toBeFalsy();
    expect(JSON.parse(fileText())).toEqual({ tools: { profile: 'minimal' } });
    expect(statSync(configPath).mode & 0o777).toBe(0o640);
    expect(errorCode(await system.execute(params, { approval }))).toBe('APPROVAL_REQUIRED');
    expect(audit().slice(-5).map((record) => record.decision)).toEqual(['refused', 'refused', 'started', 'done', 'refused']);
    expect(audit().at(-2)).toMatchObject({ changedPaths: ['tools.profile'], configHash: configFileHash(fileText()) });
  });

  it('validates the result before writing: an invalid config or a stale base changes nothing', async () => {
    const before = fileText();
    const invalid = { action: 'config.patch', patch: { tools: { profile: 'everything', alow: ['x'] } } };
    const refused = await system.execute(invalid, { approval: system.arm(invalid) });
    expect(errorCode(refused)).toBe('CONFIG_INVALID');
    expect(textOf(refused)).toContain('tools.profile');
    const stale = { action: 'config.apply', config: { tools: { profile: 'full' } }, baseHash: 'sha256:0000' };
    expect(errorCode(await system.execute(stale, { approval: system.arm(stale) }))).toBe('CONFLICT');
    expect(fileText()).toBe(before);
    expect(audit().slice(-4).map((record) => record.decision)).toEqual(['started', 'failed', 'started', 'failed']);
  });

  it('writes through a symlinked config file to its target, keeping the link', async () => {
    const target = path.join(scratch.dir, 'real.config.json');
    const link = path.join(scratch.dir, 'linked.config.json');
    writeFileSync(target, JSON.stringify({ tools: { profile: 'coding' } }));
    symlinkSync(target, link);
    const linked = createSystemTool({ configPath: link, auditLogPath });
    const params = { action: 'config.patch', patch: { tools: { deny: ['exec'] } } };
    expect((await linked.execute(params, { approval: linked.arm(params) })).isError).toBeFalsy();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ tools: { profile: 'coding', deny: ['exec'] } });
  });

  it("restarts only through the host's callback, with an armed approval, and audits it", async () => {
    const params = { action: 'restart', reason: 'apply the new profile' };
    expect(errorCode(await system.execute(params))).toBe('APPROVAL_REQUIRED');
    expect(restarts).toEqual([]);
    expect((await system.execute(params, { approval: system.arm(params) })).isError).toBeFalsy();
    expect(restarts).toEqual(['apply the new profile']);
    expect(audit().at(-1)).toMatchObject({ action: 'restart', decision: 'done' });
  });

  it('keeps an owner-only audit log with digests, never the values it was given', async () => {
    const secretPatch = { action: 'config.patch', patch: { plugins: [{ id: 'x', command: ['x'], env: { TOKEN: 'do-not-log-me' } }] } };
    expect((await system.execute(secretPatch, { approval: system.arm(secretPatch) })).isError).toBeFalsy();
    expect(readFileSync(configPath, 'utf8')).toContain('do-not-log-me');
    expect(statSync(auditLogPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(auditLogPath, 'utf8')).not.toContain('do-not-log-me');
    expect(audit().every((record) => typeof record.digest === 'string' && (record.digest as string).length === 64)).toBe(true);
  });
});

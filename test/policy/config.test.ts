import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfig, loadConfigFile } from '../../kernel/config/validate.js';
import { ConfigError } from '../../kernel/config/errors.js';

describe('config validation', () => {
  it('accepts a full, valid config', () => {
    const result = checkConfig({
      plugins: [{ id: 'fs', module: './plugins/fs/main.js' }],
      tools: { profile: 'coding', allow: ['read'], deny: ['exec'], byProvider: { openai: { profile: 'minimal' } }, sandbox: { tools: { alsoAllow: ['browser'] } } },
      agents: { defaults: { sandbox: { mode: 'non-main' } }, list: [{ id: 'main', plugins: ['fs'], tools: { alsoAllow: ['message'] } }] },
    });
    expect(result).toMatchObject({ ok: true });
  });

  it('reports every problem with its config path', () => {
    const result = checkConfig({
      tools: { profile: 'coder', alow: ['read'], deny: ['exec', 7] },
      agents: { list: [{ id: 'main', tools: { byProvider: { openai: { profile: 'nope' } } } }, { id: 'main' }] },
    });
    expect(result.ok).toBe(false);
    const paths = result.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['tools.profile', 'tools', 'tools.deny[1]', 'agents.list[0].tools.byProvider.openai.profile']));
    expect(result.issues.find((i) => i.path === 'tools')?.message).toMatch(/alow/);
  });

  it('rejects duplicate ids and agents naming plugins that are not configured', () => {
    const result = checkConfig({
      plugins: [{ id: 'fs', module: 'a.js' }, { id: 'fs', module: 'b.js' }],
      agents: { list: [{ id: 'a', plugins: ['shell'] }, { id: 'a' }] },
    });
    expect(result.issues).toEqual(expect.arrayContaining([
      { path: 'plugins[1].id', message: expect.stringContaining('duplicate') },
      { path: 'agents.list[0].plugins[0]', message: expect.stringContaining('"shell"') },
      { path: 'agents.list[1].id', message: expect.stringContaining('duplicate') },
    ]));
  });

  it('refuses keys the id rule cannot tell apart, and a main session key with ":" in it', () => {
    const result = checkConfig({
      groups: { Team: {}, ' team': {} },
      tools: { byProvider: { openai: {}, OpenAI: {} } },
      agents: { list: [{ id: 'main' }, { id: 'Main' }] },
    });
    expect(result.issues).toEqual([
      { path: 'agents.list[1].id', message: expect.stringContaining('same id as "main"') },
      { path: 'groups. team', message: expect.stringContaining('"Team"') },
      { path: 'tools.byProvider.OpenAI', message: expect.stringContaining('case-insensitively') },
    ]);
    expect(checkConfig({ session: { mainKey: 'group:x' } }).issues).toEqual([{ path: 'session.mainKey', message: expect.stringContaining('one segment') }]);
  });

  it('requires exactly one of command or module for a plugin', () => {
    expect(checkConfig({ plugins: [{ id: 'x' }] }).issues[0]).toMatchObject({ path: 'plugins[0]' });
  });

  it('loads a file and names it in errors; a missing file and bad JSON get their own codes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pincer-config-'));
    writeFileSync(join(dir, 'bad.json'), '{ "tools": ');
    writeFileSync(join(dir, 'invalid.json'), JSON.stringify({ tools: { profile: 7 } }));
    await expect(loadConfigFile('missing.json', { cwd: dir })).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND' });
    await expect(loadConfigFile('bad.json', { cwd: dir })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    const error = await loadConfigFile('invalid.json', { cwd: dir }).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(join(dir, 'invalid.json'));
    expect(error.issues[0].path).toBe('tools.profile');
  });
});

describe('plugin entries', () => {
  it('reject a misspelt key instead of ignoring it', () => {
    const result = checkConfig({ plugins: [{ id: 'fs', module: 'a.js', lazzy: true }] });
    expect(result.ok).toBe(false);
    expect(result.issues[0]).toMatchObject({ path: 'plugins[0]', message: expect.stringContaining('lazzy') });
  });
});

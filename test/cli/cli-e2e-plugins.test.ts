/**
 * Plugins that cannot start are never silent: `tools` names each one with its error, `plugins`
 * fails the health check, and relative `command` paths resolve against the config's folder.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, ensureBuilt, pincer, tempWorkspace } from './helpers/built-cli.js';

beforeAll(() => ensureBuilt());

describe('plugin problems in the CLI', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  // The config and its plugins live outside the agent's workspace: the host refuses plugin code an agent can write.
  function config(name: string, plugins: unknown[]): string {
    const dir = join(ws.dir, 'etc');
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(ws.dir, 'work'), { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify({ plugins, agents: { list: [{ id: 'main', workspace: '../work' }] } }));
    return file;
  }

  it('shows a plugin with a wrong module path and its error under the tool list', async () => {
    const file = config('wrong-module.json', [{ id: 'fs', module: 'nowhere/fs.js' }]);
    const { code, stdout } = await pincer(['tools', '--config', file], { cwd: ws.dir });
    expect(code).toBe(0);
    expect(stdout).toContain('0 tools');
    expect(stdout).toContain('Plugins not serving (1)');
    // The cause, not a crash: node would start and exit 1 on a missing module.
    expect(stdout).toContain(`✗ fs failed: SPAWN_FAILED: plugin "fs" could not be started: no file at ${join(ws.dir, 'etc', 'nowhere', 'fs.js')} (its "module")`);

    const json = JSON.parse((await pincer(['tools', '--config', file, '--json'], { cwd: ws.dir })).stdout);
    expect(json.pluginProblems.map((p: { id: string }) => p.id)).toEqual(['fs']);
  });

  it('exits 1 from plugins while a plugin has failed to start', async () => {
    const file = config('crashing.json', [{ id: 'fs', module: 'nowhere/fs.js' }]);
    const { code, stdout } = await pincer(['plugins', '--config', file], { cwd: ws.dir });
    expect(stdout).toMatch(/\nfs\s+failed\s/);
    expect(code).toBe(1);
  });

  it('prints a plugin’s result text with its escape sequences shown, not obeyed, and keeps --json exact', async () => {
    const file = config('escapes.json', [{ id: 'esc', module: join(REPO, 'dist/test/fixtures/plugins/writes-escape-sequences.js') }]);
    const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // ESC, BEL, CR, C1: anything but newline and tab
    const ok = await pincer(['call', 'fine', '--config', file], { cwd: ws.dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('result \\x1b]0;pwned\\x07\\x1b[2J');
    for (const [name, text] of Object.entries({ stdout: ok.stdout, stderr: ok.stderr })) expect(RAW.test(text), `${name}: ${JSON.stringify(text)}`).toBe(false);
    const json = await pincer(['call', 'fine', '--config', file, '--json'], { cwd: ws.dir });
    expect(JSON.parse(json.stdout).content[0].text).toBe('result \u001b]0;pwned\u0007\u001b[2J\u001b[1A\rall plugins healthy\n[plugin:fs] error: forged');
  });

  it('resolves a relative command against the config file, not the caller', async () => {
    const dir = join(ws.dir, 'conf');
    mkdirSync(dir);
    const script = join(dir, 'echo-plugin.sh');
    writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${join(REPO, 'dist/test/fixtures/plugins/echo.js')}"\n`);
    chmodSync(script, 0o755);
    const file = join(dir, 'pincer.config.json');
    mkdirSync(join(ws.dir, 'work'), { recursive: true });
    writeFileSync(file, JSON.stringify({ plugins: [{ id: 'echo', command: ['./echo-plugin.sh'] }], agents: { list: [{ id: 'main', workspace: '../work' }] } }));

    // Run from one folder above the config: `./echo-plugin.sh` is not here.
    const { code, stdout, stderr } = await pincer(['plugins', '--config', 'conf/pincer.config.json'], { cwd: ws.dir });
    expect(stdout, stderr).toMatch(/\necho\s+ready\s/);
    expect(code).toBe(0);
  });
});

import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonWithComments } from '../../kernel/config/jsonc.js';
import { ensureBuilt, pincer } from '../cli/helpers/built-cli.js';
import { runCliHere } from './helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

const workspace = () => tempDir('pincer-init-');

beforeAll(ensureBuilt);

describe('pincer init', () => {
  it('writes a commented config that loads, validates against its $schema, and runs calls from the workspace', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'hello.txt'), 'hi from init\n');
    const init = await pincer(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`Wrote ${join(dir, 'pincer.config.json')} (profile coding, sandbox off)`);
    const text = readFileSync(join(dir, 'pincer.config.json'), 'utf8');
    expect(text).toMatch(/^\/\/ Pincer config written by `pincer init`/);
    expect(text).toContain('"alsoAllow": ["my_tool"]');

    const config = parseJsonWithComments(text) as { $schema: string };
    const schema = JSON.parse(readFileSync(fileURLToPath(config.$schema), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);

    const call = await pincer(['call', 'read', '{"path":"hello.txt"}'], { cwd: dir });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('hi from init');
    // The config it wrote is a protected path: no tool may change it.
    const write = await pincer(['call', 'write', '{"path":"pincer.config.json","content":"{}"}'], { cwd: dir });
    expect(write.code).toBe(1);
    expect(readFileSync(join(dir, 'pincer.config.json'), 'utf8')).toBe(text);
  });

  it('refuses to replace an existing config without --force, and keeps the old one as .bak with it', async () => {
    const dir = workspace();
    const file = join(dir, 'pincer.config.json');
    writeFileSync(file, '{ "tools": { "profile": "minimal" } }\n');
    const refused = await runCliHere(['init', '--json'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'FILE_EXISTS', path: file });
    expect(readFileSync(file, 'utf8')).toBe('{ "tools": { "profile": "minimal" } }\n');

    const forced = await runCliHere(['init', '--force', '--profile', 'messaging'], { cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('{ "tools": { "profile": "minimal" } }\n');
    expect(readFileSync(file, 'utf8')).toContain('"profile": "messaging"');
  });

  it('never writes through a .bak an agent planted as a symbolic link', async () => {
    const dir = workspace();
    const outside = join(workspace(), 'bashrc');
    writeFileSync(outside, 'export SAFE=1\n');
    writeFileSync(join(dir, 'pincer.config.json'), '{}\n');
    symlinkSync(outside, join(dir, 'pincer.config.json.bak'));
    const run = await runCliHere(['init', '--force'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('export SAFE=1\n');
    expect(lstatSync(join(dir, 'pincer.config.json.bak')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'pincer.config.json.bak'), 'utf8')).toBe('{}\n');
  });

  it('asks on a terminal for what the flags leave open, asking again after an answer it cannot use', async () => {
    const dir = workspace();
    const run = await runCliHere(['init'], { cwd: dir, answers: ['full', 'sometimes', 'all', 'ssh', 'build-box', 'agent@build-box:2222', '/keys/id_ed25519'] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Tool profile (minimal, coding, messaging, full) [coding]: ');
    expect(run.stderr).toContain('"sometimes" is not one of off, non-main, all');
    expect(run.stderr).toContain("expected user@host or user@host:port, got 'build-box'");
    const config = parseJsonWithComments(readFileSync(join(dir, 'pincer.config.json'), 'utf8')) as any;
    expect(config.tools.profile).toBe('full');
    expect(config.agents.defaults.sandbox).toEqual({ mode: 'all', backend: 'ssh' });
    expect(config.plugins.at(-1)).toMatchObject({ id: 'sandbox-ssh', settings: { ssh: { user: 'agent', host: 'build-box', port: 2222, privateKeyPath: '/keys/id_ed25519' } } });
    expect(existsSync(config.plugins.at(-1).module)).toBe(true);
  });

  it('never asks without a terminal: flags, else the defaults', async () => {
    const dir = workspace();
    const run = await runCliHere(['init', '--sandbox', 'non-main'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const config = parseJsonWithComments(readFileSync(join(dir, 'pincer.config.json'), 'utf8')) as any;
    expect(config.tools.profile).toBe('coding');
    expect(config.agents.defaults.sandbox).toEqual({ mode: 'non-main', backend: 'docker' });
    expect(config.plugins.map((p: { id: string }) => p.id)).toEqual(['fs', 'shell', 'sandbox-local', 'skills', 'sandbox-docker']);
    // New configs confine the local backend's commands (docs/confinement.md).
    expect(config.plugins.find((p: { id: string }) => p.id === 'sandbox-local').settings).toEqual({ exec: { mode: 'workspace-write' } });
    // ...and refuse third-party plugins that declare no confinement (the bundled ones all declare).
    expect(config.confinement).toEqual({ requireDeclaration: true });
  });

  it('writes to --config F with the workspace relative to F, and refuses bad choices and the home directory', async () => {
    const dir = workspace();
    const elsewhere = workspace();
    const run = await runCliHere(['init', '--workspace', dir, '--config', join(elsewhere, 'agent.json')], { cwd: elsewhere });
    expect(run.code, run.stderr).toBe(0);
    const config = parseJsonWithComments(readFileSync(join(elsewhere, 'agent.json'), 'utf8')) as any;
    expect(join(elsewhere, config.agents.list[0].workspace)).toBe(dir);

    const bad = await runCliHere(['init', '--profile', 'coder'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--profile must be one of minimal, coding, messaging, full, got 'coder'");
    const home = await runCliHere(['init'], { cwd: dir, env: { HOME: dir } });
    expect(home.code).toBe(1);
    expect(home.stderr).toContain(`refusing the home directory ${dir}`);
    expect(existsSync(join(dir, 'pincer.config.json'))).toBe(false);
  });
});

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parseJsonWithComments } from '../../kernel/config/jsonc.js';
import { REPO, connectServe, mustRun, packAndInstall, run, temp, type PackedInstall } from './packed.js';

let install: PackedInstall;
const clients: Client[] = [];

beforeAll(async () => {
  install = await packAndInstall();
}, 600_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

function workspace(): string {
  const dir = temp('installed-ws');
  writeFileSync(join(dir, 'hello.txt'), 'hello from outside\n');
  return dir;
}

/** A config `pincer init` wrote (from the install), plus `extra` plugins and their tools allowed. */
async function configFor(dir: string, extra: Record<string, unknown>[], alsoAllow: string[]): Promise<string> {
  const file = join(temp('config'), 'pincer.config.json');
  await mustRun(install.bin, ['init', '--yes', '--workspace', dir, '--config', file], { cwd: dir });
  const config = parseJsonWithComments(readFileSync(file, 'utf8')) as { plugins: unknown[]; tools: Record<string, unknown> };
  config.plugins.push(...extra);
  config.tools.alsoAllow = alsoAllow;
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

async function callOverMcp(dir: string, configFile: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const client = await connectServe(install.bin, ['serve', '--config', configFile], temp('client-cwd'));
  clients.push(client);
  const result = (await client.callTool({ name: tool, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  return result.content.map((c) => c.text).join('');
}

describe('Pincer installed from its packed tarball', () => {
  it('lists, calls and writes a config from a folder that has nothing to do with the repository', async () => {
    const dir = workspace();
    expect(relative(REPO, install.root).startsWith('..')).toBe(true);
    const tools = JSON.parse(await mustRun(install.bin, ['tools', '--json'], { cwd: dir }));
    expect(tools.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['read', 'write', 'exec']));
    expect(tools.config).toBe('embedded default');
    expect(await mustRun(install.bin, ['call', 'read', '{"path":"hello.txt"}'], { cwd: dir })).toContain('hello from outside');

    await mustRun(install.bin, ['init', '--yes'], { cwd: dir });
    const config = parseJsonWithComments(readFileSync(join(dir, 'pincer.config.json'), 'utf8')) as { $schema: string; plugins: { module: string }[] };
    for (const plugin of config.plugins) expect(plugin.module.startsWith(install.root)).toBe(true);
    expect(config.$schema).toBe(`file://${join(install.root, 'schema/pincer.config.schema.json')}`);
    const doctor = await run(install.bin, ['doctor', '--json'], { cwd: dir });
    expect(doctor.code, doctor.stdout).toBe(0);
  }, 120_000);

  it('serves an MCP client the way the docs configure one: the installed bin and an explicit --workspace', async () => {
    const dir = workspace();
    const client = await connectServe(install.bin, ['serve', '--workspace', dir], temp('client-cwd'));
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read', 'exec']));
    const result = (await client.callTool({ name: 'read', arguments: { path: 'hello.txt' } })) as { content: { text: string }[] };
    expect(result.content[0]!.text).toContain('hello from outside');
  }, 120_000);

  it('builds and tests the plugin template outside the repository, and runs it from its README config', async () => {
    const dir = join(temp('template'), 'word-tools');
    cpSync(join(REPO, 'examples/plugin-template'), dir, { recursive: true, filter: (src) => !/(^|\/)(node_modules|dist)(\/|$)/.test(relative(REPO, src)) });
    // The README's steps: the packed Pincer, the rest, build, test.
    await mustRun('npm', ['install', '--prefer-offline', install.tarball], { cwd: dir });
    await mustRun('npm', ['run', 'build'], { cwd: dir });
    await mustRun('npm', ['test'], { cwd: dir });

    const ws = workspace();
    const file = await configFor(ws, [{ id: 'word-tools', module: join(dir, 'dist/src/main.js'), lazy: true }], ['word-tools']);
    const plugins = JSON.parse(await mustRun(install.bin, ['plugins', '--json', '--config', file], { cwd: ws }));
    expect(plugins.plugins.find((p: { id: string }) => p.id === 'word-tools')).toMatchObject({ state: 'lazy', tools: 2 });
    expect(await mustRun(install.bin, ['call', 'word_count', '{"path":"hello.txt"}', '--config', file], { cwd: ws })).toContain('hello.txt: 3 words');
  }, 600_000);

  it('takes a new plugin from `pincer plugin new` to a call through `pincer serve`', async () => {
    const parent = temp('new-plugin');
    const phases: [string, number][] = [];
    const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      try {
        return await fn();
      } finally {
        phases.push([name, (performance.now() - start) / 1000]);
      }
    };
    const made = JSON.parse(await timed('plugin new', () => mustRun(install.bin, ['plugin', 'new', 'acme', '--json'], { cwd: parent })));
    expect(JSON.parse(readFileSync(join(made.dir, 'package.json'), 'utf8')).dependencies.pincer).toBe(`file:${install.root}`);
    await timed('npm install', () => mustRun('npm', ['install', '--prefer-offline'], { cwd: made.dir }));
    await timed('npm run build', () => mustRun('npm', ['run', 'build'], { cwd: made.dir }));
    await timed('npm test', () => mustRun('npm', ['test'], { cwd: made.dir }));
    const ws = workspace();
    const text = await timed('config + serve + call', async () => callOverMcp(ws, await configFor(ws, [made.configEntry], ['acme']), made.tool, { path: 'hello.txt' }));
    expect(text).toBe('hello.txt: 1 lines');
    const total = phases.reduce((sum, [, s]) => sum + s, 0);
    console.log(`plugin new → call through pincer serve: ${total.toFixed(1)} s (${phases.map(([n, s]) => `${n} ${s.toFixed(1)} s`).join(', ')})`);
  }, 600_000);
});

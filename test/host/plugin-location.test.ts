import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, defaultConfig, type Kernel } from '../../kernel/index.js';
import { PluginConfigSchema } from '../../kernel/host/index.js';
import { findPathInsideRoots, pluginCodePaths } from '../../kernel/host/plugin-location.js';
import { createPluginCodePaths } from '../../kernel/workspace/plugin-code-paths.js';
import { ROOT, fixture } from './helpers.js';

const tmp = (name: string) => mkdtempSync(path.join(tmpdir(), `pincer-${name}-`));
const text = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((b) => b.text ?? '').join('');

describe('where a plugin’s code lies', () => {
  it('collects the module, manifest, working directory, executable and every argument naming a file', () => {
    const dir = tmp('paths');
    writeFileSync(path.join(dir, 'plugin.py'), '');
    writeFileSync(path.join(dir, 'extra.js'), '');
    const command = PluginConfigSchema.parse({ id: 'py', command: ['python3', 'plugin.py', '--require=extra.js', '--flag'], cwd: dir });
    const paths = pluginCodePaths(command, dir);
    expect(paths).toEqual(expect.arrayContaining([dir, path.join(dir, 'plugin.py'), path.join(dir, 'extra.js')]));
    expect(paths.some((p) => p.endsWith('/python3'))).toBe(true); // found on PATH
    const module = PluginConfigSchema.parse({ id: 'm', module: path.join(dir, 'extra.js'), manifest: path.join(dir, 'plugin.py') });
    expect(pluginCodePaths(module, '/nowhere')).toEqual([path.join(dir, 'extra.js'), path.join(dir, 'plugin.py')]);
  });

  it('finds a path inside a root as written and after symlinks, both ways round', () => {
    const workspace = tmp('ws');
    const outside = tmp('out');
    mkdirSync(path.join(workspace, 'lib'));
    symlinkSync(path.join(workspace, 'lib'), path.join(outside, 'link-into-ws'));
    symlinkSync(outside, path.join(workspace, 'link-out'));
    symlinkSync(workspace, path.join(outside, 'ws-alias'));
    expect(findPathInsideRoots([path.join(outside, 'link-into-ws', 'main.js')], [workspace])).toMatchObject({ root: workspace });
    expect(findPathInsideRoots([path.join(workspace, 'link-out', 'main.js')], [workspace])).toMatchObject({ root: workspace }); // an agent can retarget the link
    expect(findPathInsideRoots([path.join(workspace, 'lib', 'x.js')], [path.join(outside, 'ws-alias')])).toBeDefined();
    expect(findPathInsideRoots([path.join(outside, 'main.js')], [workspace])).toBeUndefined();
    expect(findPathInsideRoots([`${workspace}-sibling/main.js`], [workspace])).toBeUndefined();
  });
});

/**
 * The attack of issue 18: an agent with only file tools appends a line to a plugin's entry file in
 * its workspace; the next start of that plugin would run the line on the host.
 */
describe('the code of a plugin allowed inside a workspace', () => {
  it('becomes protected paths of that workspace: the top-level folder holding it, the nearest package.json, node_modules and the manifest', () => {
    const code = createPluginCodePaths(defaultConfig({ cwd: ROOT }).plugins!);
    expect(code(ROOT)).toEqual(['dist', 'node_modules', 'package.json', ...['fs', 'shell', 'sandbox-local', 'skills'].map((id) => `plugins/${id}/pincer-plugin.json`)]);
    expect(code(tmp('elsewhere'))).toEqual([]);
    // Without the override nothing is protected: such a plugin is refused before it runs.
    expect(createPluginCodePaths(defaultConfig({ cwd: tmp('project') }).plugins!)(ROOT)).toEqual([]);
  });
});

describe('a plugin installed inside an agent’s workspace', () => {
  let kernel: Kernel | undefined;
  afterEach(async () => {
    await kernel?.stop();
    kernel = undefined;
  });

  function setUp(allowInsideWorkspace: boolean) {
    const workspace = tmp('victim-ws');
    const outside = tmp('outside');
    const marker = path.join(outside, 'pwned');
    // A self-contained plugin (the raw fixture bundled with its helper into one file) in the workspace, started lazily.
    const dir = path.join(workspace, 'plugins', 'notes');
    mkdirSync(dir, { recursive: true });
    buildSync({ entryPoints: [path.join(ROOT, 'test/fixtures/plugins/writes-escape-sequences.ts')], bundle: true, platform: 'node', format: 'esm', outfile: path.join(dir, 'writes-escape-sequences.js'), logLevel: 'error' });
    const manifest = { id: 'notes', version: '1.0.0', protocolVersion: 1, contributes: { tools: [{ name: 'fine', description: 'd', inputSchema: {}, family: 'raw' }] } };
    writeFileSync(path.join(dir, 'pincer-plugin.json'), JSON.stringify(manifest));
    const base = defaultConfig({ cwd: workspace });
    const config = {
      ...base,
      plugins: [...base.plugins!, { id: 'notes', module: path.join(dir, 'writes-escape-sequences.js'), lazy: true, allowInsideWorkspace }],
      agents: { list: [{ id: 'main', workspace, plugins: ['fs', 'sandbox-local', 'notes'], tools: { profile: 'coding' as const, alsoAllow: ['fine'], deny: ['group:runtime'] } }] },
    };
    return { workspace, marker, config, entry: 'plugins/notes/writes-escape-sequences.js' };
  }

  async function attack(setup: ReturnType<typeof setUp>, logs: string[] = []): Promise<{ result: string; written: { isError?: boolean; details?: unknown } }> {
    kernel = createKernel(setup.config, { logger: (r) => void logs.push(`${r.level} ${r.message}`), cwd: setup.workspace });
    await kernel.start();
    const tools = kernel.assembleTools();
    // The agent holds only file tools: no exec, no process.
    expect(tools.tools.map((t) => t.name).filter((n) => n === 'exec' || n === 'process')).toEqual([]);
    const original = text(await tools.execute('read', { path: setup.entry, limit: 100_000 }));
    expect(original).toContain('serveRaw');
    const payload = `\nimport('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(setup.marker)}, 'ran on the host'));\n`;
    const written = await tools.execute('write', { path: setup.entry, content: readFileSync(path.join(setup.workspace, setup.entry), 'utf8') + payload });
    const call = await tools.execute('fine', {}).then(text, (e: Error) => e.message);
    return { result: call, written };
  }

  it('is refused: the agent’s edit of its entry file never runs', async () => {
    const setup = setUp(false);
    const { result, written } = await attack(setup);
    expect(written.isError, JSON.stringify(written)).toBeFalsy(); // nothing protects a plugin that never runs
    expect(existsSync(setup.marker)).toBe(false);
    const notes = kernel!.plugins().find((p) => p.id === 'notes')!;
    expect(notes).toMatchObject({ state: 'failed', pid: undefined, lastError: { code: 'PLUGIN_LOCATION_REFUSED' } });
    expect(notes.lastError!.message).toContain(`${setup.workspace}/plugins/notes/writes-escape-sequences.js lies inside ${setup.workspace}, which an agent can write`);
    expect(result).not.toContain('result');
  });

  it('runs with the developer override, logged loudly, but its code is then protected: the agent’s edit is refused', async () => {
    const setup = setUp(true);
    const before = readFileSync(path.join(setup.workspace, setup.entry), 'utf8');
    const logs: string[] = [];
    const { result, written } = await attack(setup, logs);
    expect(written.isError).toBe(true);
    expect(written.details).toMatchObject({ error: { code: 'PROTECTED_PATH' } });
    expect(readFileSync(path.join(setup.workspace, setup.entry), 'utf8')).toBe(before);
    expect(result).toContain('result'); // the plugin started, from the unedited file
    expect(existsSync(setup.marker)).toBe(false);
    expect(logs.filter((l) => l.startsWith('warn DANGER: running plugin "notes"'))).toHaveLength(1);
  });

  it('leaves plugins outside every workspace alone, and checks sandbox bind mounts too', async () => {
    const workspace = tmp('ws');
    const mount = tmp('mount');
    const inMount = path.join(mount, 'echo.js');
    copyFileSync(fixture('plain'), inMount);
    kernel = createKernel(
      {
        plugins: [{ id: 'plain', module: fixture('plain') }, { id: 'mounted', module: inMount }],
        agents: { list: [{ id: 'main', workspace, sandbox: { docker: { binds: [`${mount}:/data:ro`] } } }] },
      },
      { logger: () => undefined, cwd: workspace },
    );
    await kernel.start();
    expect(kernel.plugins().map((p) => [p.id, p.state, p.lastError?.code])).toEqual([
      ['plain', 'ready', undefined],
      ['mounted', 'failed', 'PLUGIN_LOCATION_REFUSED'],
    ]);
  });
});

/**
 * Pincer's own checkout as the workspace (the Quickstart): the bundled plugins run from its
 * `dist/`, so the agent must not be able to edit `dist/` (or `node_modules/`, `package.json`).
 * The plugins run unconfined here: confined, the local backend happens to see the whole checkout
 * read-only (its own code root), which holds only where bubblewrap can run plugins; the fence under
 * test must hold without that. If it failed, the appended line is a comment, and the file is restored.
 */
describe('the embedded default', () => {
  const target = 'dist/plugins/fs/src/main.js';
  const absolute = path.join(ROOT, target);
  let original = '';
  let checkout: Kernel | undefined;
  beforeAll(async () => {
    original = readFileSync(absolute, 'utf8');
    const config = defaultConfig({ cwd: ROOT });
    const plugins = config.plugins!.map((entry) => ({ ...entry, dangerouslyUnconfined: true }));
    checkout = createKernel({ ...config, plugins }, { logger: () => undefined, cwd: ROOT });
    await checkout.start();
  });
  afterAll(async () => {
    await checkout?.stop();
    if (readFileSync(absolute, 'utf8') !== original) writeFileSync(absolute, original);
  });

  it('loads the bundled plugins from the installed package, and lets them run inside the workspace only for Pincer’s own checkout', () => {
    const elsewhere = defaultConfig({ cwd: tmp('project') });
    for (const plugin of elsewhere.plugins!) {
      expect(plugin.module!.startsWith(path.join(ROOT, 'dist/plugins/'))).toBe(true);
      expect(plugin).not.toHaveProperty('allowInsideWorkspace');
    }
    // This checkout is a git work tree: run from its own root, it is developing Pincer itself.
    expect(defaultConfig({ cwd: ROOT }).plugins!.every((p) => p.allowInsideWorkspace === true)).toBe(true);
  });

  it('refuses a write to the bundled fs plugin’s code from a run in the checkout (PROTECTED_PATH), and the file is unchanged', async () => {
    const tools = checkout!.assembleTools();
    const written = await tools.execute('write', { path: target, content: `${original}\n// appended by the agent\n` });
    expect(written.details).toMatchObject({ error: { code: 'PROTECTED_PATH' } });
    const edited = await tools.execute('edit', { path: 'package.json', oldText: '"name"', newText: '"name" ' });
    expect(edited.details).toMatchObject({ error: { code: 'PROTECTED_PATH' } });
    expect(readFileSync(absolute, 'utf8')).toBe(original);
  });

  it('shows the plugin code read-only to exec under the default local exec mode, while the command still runs', async () => {
    const tools = checkout!.assembleTools();
    const result = text(await tools.execute('exec', { command: `echo '// appended' >> ${target}; echo x >> node_modules/.pincer-probe; ls package.json` }));
    expect(result.match(/Read-only file system/g)).toHaveLength(2);
    expect(result).toContain('package.json'); // the Quickstart's `exec ls` works
    expect(readFileSync(absolute, 'utf8')).toBe(original);
    expect(existsSync(path.join(ROOT, 'node_modules/.pincer-probe'))).toBe(false);
  });
});

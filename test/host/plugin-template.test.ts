import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginHost, type PluginHost } from '../../kernel/host/index.js';
import { ROOT } from './helpers.js';

const dir = path.join(ROOT, 'examples/plugin-template');

beforeAll(() => {
  // The template depends on the published `pincer` package; point it at this checkout.
  const link = path.join(dir, 'node_modules/pincer');
  if (!existsSync(link)) {
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.relative(path.dirname(link), ROOT), link);
  }
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'pipe' });
  execFileSync(process.execPath, ['dist/src/write-manifest.js'], { cwd: dir, stdio: 'pipe' });
}, 60_000);

// The README's config, as written: only `module` and `lazy`; the manifest is found beside the entry
// (looked up when the host is made, so after the build).
let host: PluginHost;
beforeAll(() => {
  host = createPluginHost({ plugins: [{ id: 'word-tools', module: path.join(dir, 'dist/src/main.js'), lazy: true, settings: { suffix: '?' } }], logger: () => undefined });
});
afterAll(() => host.stop());

describe('the plugin template', () => {
  it('type-checks and builds against the SDK', () => {
    expect(existsSync(path.join(dir, 'dist/src/main.js'))).toBe(true);
  });

  it('writes its manifest beside the entry from its own definition, and ships none of its own', () => {
    expect(existsSync(path.join(dir, 'pincer-plugin.json'))).toBe(false);
    execFileSync(process.execPath, ['dist/src/write-manifest.js'], { cwd: dir });
    const manifest = JSON.parse(readFileSync(path.join(dir, 'dist/src/pincer-plugin.json'), 'utf8'));
    expect(manifest).toMatchObject({ id: 'word-tools', protocolVersion: 1, contributes: { tools: [{ name: 'word_count' }, { name: 'shout' }] } });
  });

  it('passes its own in-memory tests', () => {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { cwd: dir, stdio: 'pipe' });
  }, 60_000);

  it('runs under the real host from the README\'s lazy config, started on first use', async () => {
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'lazy', tools: 2 });
    const r = await host.invokeTool('word-tools', 'shout', { text: 'hi' });
    expect(r.content).toEqual([{ type: 'text', text: 'HI?' }]);
    expect(host.status()[0]!.state).toBe('ready');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginHost } from '../../kernel/host/index.js';
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
}, 60_000);

const host = createPluginHost({
  plugins: [{ id: 'word-tools', module: path.join(dir, 'dist/src/main.js'), manifest: path.join(dir, 'pincer-plugin.json'), lazy: true, settings: { suffix: '?' } }],
  logger: () => undefined,
});
afterAll(() => host.stop());

describe('the plugin template', () => {
  it('type-checks and builds against the SDK', () => {
    expect(existsSync(path.join(dir, 'dist/src/main.js'))).toBe(true);
  });

  it('ships a manifest that matches what its definition generates', () => {
    const committed = readFileSync(path.join(dir, 'pincer-plugin.json'), 'utf8');
    execFileSync(process.execPath, ['dist/src/write-manifest.js'], { cwd: dir });
    expect(readFileSync(path.join(dir, 'pincer-plugin.json'), 'utf8')).toBe(committed);
  });

  it('passes its own in-memory tests', () => {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { cwd: dir, stdio: 'pipe' });
  }, 60_000);

  it('runs under the real host, lazily started on first use', async () => {
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'lazy', tools: 2 });
    const r = await host.invokeTool('word-tools', 'shout', { text: 'hi' });
    expect(r.content).toEqual([{ type: 'text', text: 'HI?' }]);
    expect(host.status()[0]!.state).toBe('ready');
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginHost } from '../../kernel/host/index.js';
import { ROOT, fixture, testHost } from './helpers.js';

let current: PluginHost | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

const manifest = path.join(ROOT, 'test/fixtures/plugins/lazy-echo/pincer-plugin.json');

describe('lazy activation from a static manifest', () => {
  it('lists a lazy plugin’s tools without starting it, and starts it on first use', async () => {
    const { host } = testHost([{ id: 'lazy', module: fixture('echo'), manifest, lazy: true }]);
    current = host;
    await host.start();
    expect(host.status()[0]).toMatchObject({ state: 'lazy', pid: undefined, pluginVersion: '1.0.0', tools: 1 });
    expect(host.contributedTools().map((t) => `${t.pluginId}/${t.name}`)).toEqual(['lazy/echo']);
    const result = await host.invokeTool('lazy', 'echo', { x: 1 });
    expect(result.content[0]).toEqual({ type: 'text', text: '{"x":1}' });
    expect(host.status()[0]!.state).toBe('ready');
    expect(host.status()[0]!.pid).toBeGreaterThan(0);
    // After the handshake the live contributions replace the manifest's.
    expect(host.contributedTools().length).toBeGreaterThan(1);
  });

  it('shares one start between concurrent first calls', async () => {
    const { host } = testHost([{ id: 'lazy', module: fixture('echo'), manifest, lazy: true }]);
    current = host;
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => host.invokeTool('lazy', 'echo', { i })));
    expect(results).toHaveLength(5);
    expect(host.status()[0]!.restarts).toBe(0);
  });

  it('marks a lazy plugin with a broken manifest failed, naming the file and the problem', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pincer-manifest-'));
    const bad = path.join(dir, 'pincer-plugin.json');
    writeFileSync(bad, JSON.stringify({ id: 'other', version: '1', protocolVersion: 1, contributes: {} }));
    const { host } = testHost([{ id: 'lazy', module: fixture('echo'), manifest: bad, lazy: true }]);
    expect(host.status()[0]).toMatchObject({ state: 'failed', lastError: { code: 'INVALID_MANIFEST', message: expect.stringContaining('declares id "other"') } });
    expect(host.contributedTools()).toEqual([]);
  });

  it('refuses a manifest with a protocol version this kernel does not speak', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pincer-manifest-'));
    const bad = path.join(dir, 'm.json');
    writeFileSync(bad, JSON.stringify({ id: 'lazy', version: '1', protocolVersion: 4, contributes: {} }));
    const { host } = testHost([{ id: 'lazy', module: fixture('echo'), manifest: bad, lazy: true }]);
    expect(host.status()[0]).toMatchObject({ state: 'failed', lastError: { code: 'VERSION_MISMATCH', message: expect.stringContaining('[4]; this kernel speaks [1]') } });
  });
});

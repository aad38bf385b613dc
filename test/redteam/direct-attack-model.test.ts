/**
 * ATTACK: a prompt-injected model drives the built-in fs tools (read and ls through the fs
 * plugin, confined, whose read-only requests now take the direct channel to the local backend)
 * while something it started swaps symbolic links inside the workspace. The test process plays
 * the swapper (the model's background `exec` could do the same). Safe behaviour: nothing outside
 * the workspace is ever returned, and the direct road answers what the kernel road answers.
 */
import { mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { scratch, text, withKernel } from './helpers.js';

const SECRET = 'OUTSIDE-SECRET-CONTENT';

describe('symlink races against direct reads', () => {
  it('read and ls never return what lies outside while links flip under them', async () => {
    const ws = realpathSync(scratch('direct-attack-model-ws'));
    const out = realpathSync(scratch('direct-attack-model-out'));
    writeFileSync(path.join(out, 'secret.txt'), SECRET);
    writeFileSync(path.join(out, 'OUTSIDE-NAME'), 'x');
    mkdirSync(path.join(ws, 'sub'));
    writeFileSync(path.join(ws, 'sub', 'secret.txt'), 'inside content');
    writeFileSync(path.join(ws, 'inside.txt'), 'inside content');
    const cfg = { plugins: bundledPluginConfigs(), tools: { profile: 'coding' }, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main', sessionKey: 'main' });
      expect(text(await tools.execute('read', { path: 'inside.txt' }))).toContain('inside content'); // prepares; later calls carry a grant
      // Flip `link` (file) and `dir` (directory) between inside and outside targets, atomically, as fast as the loop goes.
      let stop = false;
      let flips = 0;
      const swapper = (async () => {
        while (!stop) {
          const outside = flips % 2 === 0;
          const tmpLink = path.join(ws, `.l${flips}`);
          const tmpDir = path.join(ws, `.d${flips}`);
          symlinkSync(outside ? path.join(out, 'secret.txt') : 'inside.txt', tmpLink);
          symlinkSync(outside ? out : 'sub', tmpDir);
          renameSync(tmpLink, path.join(ws, 'link'));
          renameSync(tmpDir, path.join(ws, 'dir'));
          flips++;
          if (flips % 50 === 0) await new Promise((r) => setImmediate(r));
        }
      })();
      const seen: string[] = [];
      try {
        for (let i = 0; i < 150; i++) {
          const results = await Promise.all([
            tools.execute('read', { path: 'link' }),
            tools.execute('read', { path: 'dir/secret.txt' }),
            tools.execute('ls', { path: 'dir', all: true }),
          ]);
          for (const r of results) seen.push(text(r) + JSON.stringify(r.details ?? null));
        }
      } finally {
        stop = true;
        await swapper;
      }
      const leaked = seen.filter((s) => s.includes(SECRET) || s.includes('OUTSIDE-NAME'));
      expect(flips).toBeGreaterThan(100);
      expect(seen.some((s) => s.includes('inside content'))).toBe(true); // the race was live
      expect(leaked.slice(0, 3)).toEqual([]);
    });
  }, 180_000);
});

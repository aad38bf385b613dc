import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, pincer, writeConfig } from '../cli/helpers/built-cli.js';

/** `pincer config check` names what runs outside its sandbox, with the config path (the built bin). */
const dir = mkdtempSync(join(tmpdir(), 'pincer-confine-check-'));
type Report = { ok: boolean; warnings: Array<{ path: string; message: string }> };

describe('pincer config check names unconfined settings', () => {
  beforeAll(() => ensureBuilt());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('danger-full-access exec and dangerouslyUnconfined are dangerous overrides; the default is not', async () => {
    const plain = await writeConfig(dir, () => undefined, 'plain.json');
    expect((JSON.parse((await pincer(['config', 'check', '--json', '--config', plain], { cwd: dir })).stdout) as Report).warnings).toEqual([]);
    const file = await writeConfig(dir, (c) => {
      const local = c.plugins.findIndex((p: { id: string }) => p.id === 'sandbox-local');
      c.plugins[local] = { ...c.plugins[local], settings: { exec: { mode: 'danger-full-access' } } };
      c.plugins[0] = { ...c.plugins[0], dangerouslyUnconfined: true };
    }, 'danger.json');
    const { code, stdout } = await pincer(['config', 'check', '--json', '--config', file], { cwd: dir });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.warnings.map((w) => w.path)).toEqual(expect.arrayContaining(['plugins[0].dangerouslyUnconfined', expect.stringMatching(/^plugins\[\d\]\.settings\.exec\.mode$/)]));
    expect(report.warnings.find((w) => w.path.endsWith('exec.mode'))?.message).toContain('protected paths (the loaded config, .git, .pincer) are NOT enforced');
  }, 120_000);
});

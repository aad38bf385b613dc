import { describe, expect, it } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { hostPidOfSleep } from '../helpers/host-pid.js';
import { scratch, text, withKernel } from '../redteam/helpers.js';

/**
 * Under bubblewrap the outer bwrap process can exit while its own init is still going, so the
 * host's probe of the process group used to report "processes left running" after commands that
 * left none (a 90 s `echo; sleep; echo` in CI). The confined gate now looks inside the PID
 * namespace itself: no false report, and a real stray is still reported and killed.
 */
const STRAY_NOTE = /processes it left running in the background/;

describe.skipIf(process.platform !== 'linux')('stray processes of a confined command', () => {
  const ws = scratch('confined-strays');
  const plugins = bundledPluginConfigs().map((p) => (p.id === 'sandbox-local' ? { ...p, settings: { exec: { mode: 'workspace-write' } } } : p));
  const cfg = { plugins, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;

  it('are reported only when there were some, and are killed', async () => {
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      for (let i = 0; i < 40; i += 1) {
        const quiet = await tools.execute('exec', { command: `echo quiet-${i}` });
        expect(text(quiet)).toContain(`quiet-${i}`);
        expect(text(quiet)).not.toMatch(STRAY_NOTE);
        expect(quiet.details).not.toMatchObject({ strayProcessesKilled: true });
      }
      const marker = `1000.${process.pid}7`; // a unique sleep length finds its host pid
      const stray = await tools.execute('exec', { command: `sleep ${marker} & echo started` });
      expect(text(stray)).toMatch(STRAY_NOTE);
      expect(stray.details).toMatchObject({ strayProcessesKilled: true });
      await expect.poll(() => hostPidOfSleep(marker), { timeout: 5_000 }).toBeUndefined();
      const detached = `1000.${process.pid}8`;
      const setsid = await tools.execute('exec', { command: `setsid sleep ${detached} & echo detached` });
      expect(text(setsid)).toMatch(STRAY_NOTE); // its own session does not take it out of the namespace
      await expect.poll(() => hostPidOfSleep(detached), { timeout: 5_000 }).toBeUndefined();
    });
  }, 120_000);
});

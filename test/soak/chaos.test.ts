/**
 * The short chaos run (the 10-minute soak is `node dist/bench/chaos-soak.js`, docs/confinement.md):
 * a real kernel over four real plugin processes, 50 callers for about two seconds while plugins
 * are SIGKILLed, SIGSTOPped (some past the 1 s call deadline and the 0.5 s ping) and hung up, three
 * of each at least. And what the crash budget does to the calls of a plugin that exhausts it.
 */
import { describe, expect, it } from 'vitest';
import { HANGS_UP, NAMED_ECHO, runChaos } from '../../bench/lib/chaos.js';
import { membersOfGroups, processesWith } from '../../bench/lib/process-table.js';
import { createKernel, type FailedCallResult, type KernelError } from '../../kernel/index.js';
import { tempDir } from '../helpers/temp-dir.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
process.env.PINCER_STATE_DIR = tempDir('pincer-chaos-state-'); // plugin data directories, away from ~/.pincer

describe('chaos: plugins killed, stopped and hung up under concurrent calls', () => {
  it('settles every call with its own answer or a crash code, and leaves no process behind', async () => {
    const report = await runChaos({ concurrency: 50, durationMs: 2_000, faultEveryMs: 200, faultsPerKind: 3, stopMs: [200, 1_500], callMs: 1_000, pingMs: 500, callDelayMs: [0, 200], hangMs: 10_000, stopOneAtEnd: true });

    expect(report.calls).toBeGreaterThan(200);
    expect(report.faults.SIGKILL).toBeGreaterThanOrEqual(3);
    expect(report.faults.SIGSTOP).toBeGreaterThanOrEqual(3);
    expect(report.faults.hangup).toBeGreaterThanOrEqual(3);
    expect(report.hung).toBe(0);
    expect(report.misrouted).toEqual([]);
    expect(report.unexpected).toEqual({});
    expect(report.ok + report.hung + report.misroutedCount + Object.values(report.failures).reduce((a, b) => a + b, 0)).toBe(report.calls);
    expect(report.failures.PLUGIN_CRASHED).toBeGreaterThan(0); // the faults hit calls in flight
    expect(report.ok).toBeGreaterThan(report.calls / 4);
    expect(report.inflightAfter).toBe(0);
    expect(Object.values(report.servedAfter)).toEqual([true, true, true, true]);
    expect(report.leftovers).toEqual([]); // one plugin was still SIGSTOPped when the kernel stopped
  }, 40_000);

  it('fails the calls of a plugin that crashed 3 times with PLUGIN_UNAVAILABLE naming it failed, while the others serve', async () => {
    const cwd = tempDir('pincer-chaos-budget-');
    const marker = `pincer-chaos-budget-${process.pid}`;
    const timeouts = { shutdownGraceMs: 300, killGraceMs: 300 };
    const kernel = createKernel(
      {
        plugins: [
          { id: 'fragile', module: HANGS_UP, args: [marker], timeouts },
          { id: 'steady', module: NAMED_ECHO, args: [marker], timeouts },
        ],
        agents: { list: [{ id: 'main', default: true, workspace: cwd }] },
      },
      // The default budget (3 crashes in 5 minutes), with a short backoff so the test is quick.
      { logger: () => undefined, cwd, restart: { backoffBaseMs: 50, backoffMaxMs: 100 } },
    );
    const groups = new Set<number>();
    await kernel.start();
    try {
      const toolSet = kernel.assembleTools({ agentId: 'main' });
      const fragile = () => kernel.plugins().find((p) => p.id === 'fragile')!;
      for (const signal of ['SIGKILL', 'SIGUSR2', 'SIGKILL'] as const) {
        while (fragile().state !== 'ready') await sleep(20);
        const pid = fragile().pid!;
        groups.add(pid);
        const inFlight = Array.from({ length: 10 }, (_, i) => toolSet.execute('fragile_echo', { tag: `${signal}-${i}`, ms: 5_000 }));
        await sleep(200); // the calls reach the plugin
        process.kill(pid, signal); // SIGUSR2: the fixture closes its pipe and lingers
        for (const result of await Promise.all(inFlight)) expect(result).toMatchObject({ outcome: 'tool_error', code: 'PLUGIN_CRASHED', retryable: true });
      }
      while (fragile().state !== 'failed') await sleep(20);

      const late = (await toolSet.execute('fragile_echo', { tag: 'late' })) as FailedCallResult;
      expect(late).toMatchObject({ outcome: 'unavailable', code: 'PLUGIN_UNAVAILABLE', retryable: false, plugin: { id: 'fragile', state: 'failed' } });
      expect((late.cause as KernelError).code).toBe('PLUGIN_FAILED');
      expect(late.error.message).toMatch(/plugin "fragile" has failed and is not running: plugin "fragile" crashed 3 times within 300 s/);
      expect(kernel.assembleTools({ agentId: 'main' }).tools.map((t) => t.name)).not.toContain('fragile_echo');
      expect(JSON.parse((await toolSet.execute('steady_echo', { tag: 'still' })).content.map((c) => ('text' in c ? c.text : '')).join(''))).toEqual({ tag: 'still' });
      for (const p of kernel.plugins()) if (p.pid) groups.add(p.pid);
    } finally {
      await kernel.stop();
    }
    expect([...processesWith(marker), ...membersOfGroups(groups)]).toEqual([]);
  });
});

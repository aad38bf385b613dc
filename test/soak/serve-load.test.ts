/**
 * The short load run on the MCP front (the long one is `node dist/bench/serve-load.js`,
 * docs/confinement.md): the real `pincer serve --http` with 20 MCP SDK client sessions calling
 * for about three seconds, a quarter of them with call streams cut mid-call, a quarter walking
 * away from their sessions. No timing is asserted: only what must hold under any load.
 */
import { describe, expect, it } from 'vitest';
import { runServeLoad } from '../../bench/lib/serve-load.js';

describe('load on pincer serve --http', () => {
  it('answers every call once with its own tag, runs it once, and expires every abandoned session', async () => {
    const report = await runServeLoad({
      sessions: 20, durationMs: 3_000, idleTimeoutS: 2, droppers: 0.25, dropChance: 0.3, abandoners: 0.25, abandonAfterCalls: [1, 3], callDelayMs: [20, 150], callTimeoutMs: 20_000,
    });

    expect(report.calls).toBeGreaterThan(20);
    expect(report.wrong).toEqual([]);
    expect(report.unanswered).toEqual({ count: 0, notDelivered: 0, lost: 0 });
    expect(report.answered).toBe(report.calls);
    expect(report.duplicates).toBe(0);
    expect(report.streamsCut).toBeGreaterThan(0); // resumed with Last-Event-ID, answered once anyway
    expect(report.server.ran).toBe(report.calls); // the plugin's own count: no call ran twice, none was lost
    expect(report.server.repeated).toEqual([]);

    expect(report.abandoned).toBeGreaterThan(0);
    expect(report.server.expired).toBe(report.abandoned);
    expect(report.server.closed).toBe(report.server.opened - report.abandoned);
    expect(report.server.live).toBe(0);
    expect(report.exitCode).toBe(0);
    expect(report.leftovers).toEqual([]);
  }, 60_000);
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('examples/agent-host.mjs, the embedding guide as a program', () => {
  it('runs a scripted model in both provider formats through every outcome, with approvals, a cancel and a plugin restart', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [path.join(root, 'examples/agent-host.mjs')], { cwd: root, timeout: 120_000 }, (error, out, err) =>
        resolve({ code: error ? 1 : 0, stdout: out, stderr: err }),
      );
    });
    expect(code, stderr).toBe(0);
    // The example asserts each outcome itself; this checks it really got to the end of its script.
    for (const line of ['denied TOOL_REMOVED', 'unavailable UNKNOWN_TOOL', 'blocked POLICY_BLOCKED', 'denied APPROVAL_DENIED', 'timed_out APPROVAL_TIMED_OUT', 'cancelled CANCELLED', 'tool_error PLUGIN_CRASHED (retryable)']) {
      expect(stdout).toContain(line);
    }
    expect(stdout).toMatch(/ok: 12 calls, \d+ diagnostics events, all outcomes as expected/);
  });
});

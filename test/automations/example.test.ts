import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

describe('docs/automations.md\'s embedding example', () => {
  it('examples/automations-host.mjs spawns, schedules and lists tasks through real plugins', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [path.join(ROOT, 'examples/automations-host.mjs')], { cwd: ROOT, timeout: 60_000 }, (error, out, err) => resolve({ code: error ? 1 : 0, stdout: out, stderr: err })),
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/subagent: agent:main:subagent:[0-9a-f-]+: succeeded \| read: ok buy milk/);
    expect(stdout).toContain("job: check notes [ 'read' ]");
    expect(stdout).toContain("cron run: true [ 'read' ]");
    expect(stdout).toContain('finished tasks: cron, subagent');
  });
});

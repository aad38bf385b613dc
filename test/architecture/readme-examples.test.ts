import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function run(script: string, cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, script)], { cwd, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}

describe('the README examples run as shown', () => {
  it('examples/policy-api.mjs prints what the README says', async () => {
    const { code, stdout, stderr } = await run('examples/policy-api.mjs');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("[ 'ls', 'read', 'write', 'edit', 'apply_patch', 'exec' ]");
    expect(stdout).toContain('true true false');
    expect(stdout).toContain("[ 'read' ]");
    expect(stdout).toContain("host: 'C:\\\\data', container: '/data', options: 'ro'");
  });

  it('examples/embed-kernel.mjs assembles, explains and calls through real plugins', async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-readme-'));
    writeFileSync(path.join(workspace, 'package.json'), '{\n  "name": "demo"\n}\n');
    const { code, stdout, stderr } = await run('examples/embed-kernel.mjs', workspace);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("[ 'ls', 'read', 'write', 'edit', 'apply_patch', 'process' ]");
    expect(stdout).toContain("configKey: 'tools.deny'");
    expect(stdout).toContain('"name": "demo"');
  });
});

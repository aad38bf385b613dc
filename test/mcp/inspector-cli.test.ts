/**
 * `@modelcontextprotocol/inspector` in CLI mode as a second, independent MCP client. It is a
 * devDependency pinned at 0.15.0, the last release that runs on Node 20.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';

const INSPECTOR = join(REPO, 'node_modules/.bin/mcp-inspector');

function inspector(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(INSPECTOR, ['--cli', process.execPath, CLI, 'serve', '--workspace', '.', ...args], { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => ensureBuilt());

describe('pincer serve with the MCP Inspector CLI', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  it('lists the tools', async () => {
    const { code, stdout, stderr } = await inspector(ws.dir, ['--method', 'tools/list']);
    expect(code, stderr).toBe(0);
    const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['read', 'exec']));
  });

  it('calls read on README.md', async () => {
    const { code, stdout, stderr } = await inspector(ws.dir, ['--method', 'tools/call', '--tool-name', 'read', '--tool-arg', 'path=README.md']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as { content: { text?: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.content.map((c) => c.text ?? '').join('')).toContain('# temp workspace');
  });
});

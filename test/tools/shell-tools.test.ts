import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundRegistry } from '../../plugins/shell/src/background/registry.js';
import { createExecTool } from '../../plugins/shell/src/tools/exec.js';
import { createProcessTool } from '../../plugins/shell/src/tools/process.js';
import { errorCodeOf, tempWorkspace, textOf, type TempWorkspace } from './helpers.js';
import type { ToolDefinition } from '../../sdk/plugin-api.js';
import type { z } from 'zod';

let t: TempWorkspace;
let registry: BackgroundRegistry;
let execTool: ToolDefinition<any>;
let processTool: ToolDefinition<any>;

beforeEach(async () => {
  t = await tempWorkspace();
  registry = new BackgroundRegistry();
  execTool = createExecTool(registry);
  processTool = createProcessTool(registry);
});
afterEach(async () => {
  await registry.killAll();
  await t.cleanup();
});

async function call(tool: ToolDefinition<any>, args: Record<string, unknown>, sessionKey = 's1', signal = new AbortController().signal) {
  const params = (tool.inputSchema as z.ZodType).parse(args);
  const result = await tool.handler(params, { workspace: t.workspace, signal, call: { sessionKey } } as never);
  if (typeof result === 'string') throw new Error('expected a full result');
  return result;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('exec tool', () => {
  it('returns stdout, stderr and the exit code with details', async () => {
    const result = await call(execTool, { command: 'echo out; echo err >&2' });
    expect(textOf(result)).toMatch(/^out\n\[stderr\]\nerr\n\[exit code 0; [\d.]+ s\]$/);
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
    expect(result.isError).toBeUndefined();
  });

  it('marks a non-zero exit as an error result but still shows the output', async () => {
    const result = await call(execTool, { command: 'echo failing; exit 2' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/failing\n\[exit code 2/);
  });

  it('explains a missing binary as EXEC_NOT_FOUND', async () => {
    const result = await call(execTool, { command: 'no-such-binary-pincer' });
    expect(errorCodeOf(result)).toBe('EXEC_NOT_FOUND');
    expect(textOf(result)).toMatch(/not found[\s\S]*command -v/);
  });

  it('kills a command that never ends at the timeout and says so', async () => {
    const result = await call(execTool, { command: 'echo started; sleep 1000', timeout: 0.3 });
    expect(errorCodeOf(result)).toBe('EXEC_TIMEOUT');
    expect(textOf(result)).toMatch(/timed out after 0.3 s[\s\S]*started/);
  });

  it('runs in a cwd inside the workspace and refuses one outside', async () => {
    await fs.mkdir(path.join(t.dir, 'pkg'));
    expect(textOf(await call(execTool, { command: 'pwd', cwd: 'pkg' }))).toContain(path.join(t.dir, 'pkg'));
    expect(errorCodeOf(await call(execTool, { command: 'pwd', cwd: '/' }))).toBe('PATH_NOT_ADMITTED');
  });

  it('caps an output flood and says the output was truncated', async () => {
    const result = await call(execTool, { command: 'head -c 1000000 /dev/zero | tr "\\0" x' });
    expect(result.details).toMatchObject({ truncated: true, exitCode: 0 });
    expect(textOf(result).length).toBeLessThan(140 * 1024);
    expect(textOf(result)).toMatch(/output truncated/);
  });

  it('passes explicit env and keeps the host env out', async () => {
    process.env.PINCER_SECRET_TOKEN = 'x';
    try {
      const text = textOf(await call(execTool, { command: 'env', env: { FOO: 'bar' } }));
      expect(text).toContain('FOO=bar');
      expect(text).not.toContain('PINCER_SECRET_TOKEN');
    } finally {
      delete process.env.PINCER_SECRET_TOKEN;
    }
  });
});

describe('process tool with background runs', () => {
  it('starts a background run, polls it until it ends and reads its log', async () => {
    const started = await call(execTool, { command: 'sleep 0.2; echo finished', background: true });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    expect(textOf(started)).toMatch(/Started background run run_/);
    const polled = await call(processTool, { action: 'poll', sessionId, waitMs: 5000 });
    expect(polled.details).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(textOf(await call(processTool, { action: 'log', sessionId }))).toMatch(/^finished\n\[exit code 0/);
    expect(textOf(await call(processTool, { action: 'list' }))).toMatch(new RegExp(`${sessionId}  completed`));
  });

  it('kills a background run together with its child processes', async () => {
    const pidFile = path.join(t.dir, 'bg.pid');
    const started = await call(execTool, { command: `sleep 1000 & echo $! > ${pidFile}; wait`, background: true });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    for (let i = 0; i < 50 && !(await fs.access(pidFile).then(() => true, () => false)); i += 1) await new Promise((r) => setTimeout(r, 20));
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    const killed = await call(processTool, { action: 'kill', sessionId });
    expect(killed.details).toMatchObject({ status: 'killed' });
    // SIGKILL lands asynchronously; allow a loaded machine a moment.
    for (let i = 0; i < 100 && isAlive(pid); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(isAlive(pid)).toBe(false);
  });

  it('keeps runs private to the session that started them', async () => {
    const started = await call(execTool, { command: 'sleep 5', background: true }, 'alice');
    const sessionId = (started.details as { sessionId: string }).sessionId;
    expect(errorCodeOf(await call(processTool, { action: 'kill', sessionId }, 'mallory'))).toBe('NO_SUCH_RUN');
    expect(textOf(await call(processTool, { action: 'list' }, 'mallory'))).toBe('No background runs in this session.');
  });

  it('explains a missing sessionId and reports a running run without output yet', async () => {
    expect(errorCodeOf(await call(processTool, { action: 'poll' }))).toBe('INVALID_ARGUMENT');
    const started = await call(execTool, { command: 'sleep 5', background: true });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    expect(textOf(await call(processTool, { action: 'log', sessionId }))).toMatch(/still running/);
    expect(textOf(await call(processTool, { action: 'poll', sessionId }))).toMatch(/still running/);
  });
});

import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RunJournal } from '../../plugins/shell/src/runs/journal.js';
import { createExecTool } from '../../plugins/shell/src/tools/exec.js';
import { createProcessTool } from '../../plugins/shell/src/tools/process.js';
import type { ToolDefinition } from '../../sdk/plugin-api.js';
import { errorCodeOf, tempWorkspace, textOf, type TempWorkspace } from './helpers.js';

let t: TempWorkspace;
let execTool: ToolDefinition<any>;
let processTool: ToolDefinition<any>;

beforeEach(async () => {
  t = await tempWorkspace();
  const journal = new RunJournal();
  execTool = createExecTool(journal);
  processTool = createProcessTool(journal);
});
afterEach(async () => {
  for (const run of (await t.workspace.runs.list()).runs) await t.workspace.runs.kill(run.runId);
  await t.cleanup();
});

async function call(tool: ToolDefinition<any>, args: Record<string, unknown>) {
  const params = (tool.inputSchema as z.ZodType).parse(args);
  const result = await tool.handler(params, { workspace: t.workspace, signal: new AbortController().signal, call: { sessionKey: 's1' }, progress: () => undefined } as never);
  if (typeof result === 'string') throw new Error('expected a full result');
  return result;
}

const sessionIdOf = (result: { details?: unknown }) => (result.details as { sessionId: string }).sessionId;

describe('exec tool', () => {
  it('returns stdout, stderr (labelled, in order) and the exit code with details', async () => {
    const result = await call(execTool, { command: 'echo out; echo err >&2; sleep 0.1; echo more' });
    expect(textOf(result)).toMatch(/^out\n\[stderr\]\nerr\n\[stdout\]\nmore\n\[exit code 0; [\d.]+ s\]$/);
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
    expect(result.isError).toBeUndefined();
  });

  it('keeps every line of output when a command is not found, adding the classification as a hint', async () => {
    const result = await call(execTool, { command: 'echo "test 1 ok"; echo "test 2 FAILED" >&2; eslint_missing_pincer .' });
    expect(result.isError).toBe(true);
    expect(errorCodeOf(result)).toBe('EXEC_NOT_FOUND');
    expect(textOf(result)).toMatch(/^test 1 ok\n\[stderr\]\ntest 2 FAILED\n.*eslint_missing_pincer.*not found\n\[exit code 127; [\d.]+ s\]\nHint: Exit code 127 usually means/);
    expect(textOf(await call(execTool, { command: 'echo out; exit 127' }))).toMatch(/^out\n\[exit code 127;/);
  });

  it('kills a command that never ends at the timeout, says so in the seconds given, and keeps what it printed', async () => {
    const result = await call(execTool, { command: 'echo started; sleep 1000', timeout: 0.3 });
    expect(errorCodeOf(result)).toBe('EXEC_TIMEOUT');
    expect(textOf(result)).toMatch(/^started\n\[timed out after 0.3 s; the command and its child processes were killed; [\d.]+ s\]\nHint:/);
  });

  it('refuses a timeout too small to be one, and an env name that is not a name, naming the parameter', () => {
    const issues = (args: Record<string, unknown>) => (execTool.inputSchema as z.ZodType).safeParse(args).error?.issues ?? [];
    expect(issues({ command: 'true', timeout: 0.0004 })).toEqual([expect.objectContaining({ path: ['timeout'], message: 'must be at least 0.001 seconds (1 ms)' })]);
    expect(issues({ command: 'env', env: { 'X=Y': '1' } })).toEqual([expect.objectContaining({ path: ['env', 'X=Y'] })]);
    expect(issues({ command: 'env', env: { GOOD_NAME: '1' }, timeout: 0.001 })).toEqual([]);
  });

  it('accepts as cwd the host path the command itself reports, a relative path and the workspace path; refuses one outside', async () => {
    await fs.mkdir(path.join(t.dir, 'pkg'));
    const seen = textOf(await call(execTool, { command: 'cd pkg && pwd' })).split('\n')[0]!;
    expect(seen).toBe(path.join(t.dir, 'pkg'));
    for (const cwd of [seen, 'pkg', '/workspace/pkg']) {
      const result = await call(execTool, { command: 'pwd', cwd });
      expect(textOf(result)).toMatch(new RegExp(`^${seen}\\n`));
      expect(result.details).toMatchObject({ cwd: seen });
    }
    expect(errorCodeOf(await call(execTool, { command: 'pwd', cwd: '/' }))).toBe('PATH_NOT_ADMITTED');
    expect(errorCodeOf(await call(execTool, { command: 'pwd', cwd: path.dirname(t.dir) }))).toMatch(/PATH_NOT_ADMITTED|PATH_OUTSIDE_MOUNT/);
  });

  it('keeps the start and the end of an output flood, where a build puts its error', async () => {
    const result = await call(execTool, { command: 'echo FIRST; head -c 1000000 /dev/zero | tr "\\0" x; echo; echo "error: at the end" >&2' });
    const text = textOf(result);
    expect(result.details).toMatchObject({ truncated: true, exitCode: 0 });
    expect(text.length).toBeLessThan(140 * 1024);
    expect(text).toMatch(/^FIRST\n/);
    expect(text).toMatch(/KiB of output omitted here/);
    expect(text).toMatch(/\[stderr\]\nerror: at the end\n\[exit code 0; output truncated/);
  });

  it('says when the output does not end with a newline', async () => {
    expect(textOf(await call(execTool, { command: 'printf abc' }))).toMatch(/^abc\n\[exit code 0; no newline at end of output;/);
  });

  it('passes explicit env, keeps the host env out, and gives no terminal, editor or pager', async () => {
    process.env.PINCER_SECRET_TOKEN = 'x';
    const term = process.env.TERM;
    process.env.TERM = 'xterm-256color';
    try {
      const text = textOf(await call(execTool, { command: 'env', env: { FOO: 'bar' } }));
      expect(text).toContain('FOO=bar');
      expect(text).not.toContain('PINCER_SECRET_TOKEN');
      for (const line of ['TERM=dumb', 'PAGER=cat', 'GIT_PAGER=cat', 'GIT_EDITOR=true', 'EDITOR=true']) expect(text).toContain(line);
    } finally {
      delete process.env.PINCER_SECRET_TOKEN;
      if (term === undefined) delete process.env.TERM;
      else process.env.TERM = term;
    }
  });

  it('says that processes left running with & were killed, and points to background runs', async () => {
    const pidFile = path.join(t.dir, 'server.pid');
    const result = await call(execTool, { command: `sleep 1000 & echo $! > ${pidFile}; echo started` });
    expect(textOf(result)).toMatch(/processes it left running in the background \(& or nohup\) were killed when it exited; start servers and watchers with background: true/);
    expect(result.details).toMatchObject({ strayProcessesKilled: true });
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    expect(textOf(await call(execTool, { command: 'echo quiet' }))).not.toMatch(/left running/);
    expect(execTool.description).toMatch(/& or nohup\) are killed when it exits: for servers, watchers and long builds, set background: true/);
  });
});

/** Alive and not a zombie (a zombie left for an init that does not reap is already dead). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('process tool with background runs', () => {
  it('polls a run while it runs (showing its output so far) and after it ended, and pages its log', async () => {
    const started = await call(execTool, { command: 'echo first; sleep 0.5; echo second; printf tail', background: true });
    const sessionId = sessionIdOf(started);
    expect(textOf(started)).toMatch(/^Started background run run_[0-9a-f]+ \(timeout 1800 s\)/);
    await expect.poll(async () => textOf(await call(processTool, { action: 'poll', sessionId })), { timeout: 5_000 }).toMatch(/still running[\s\S]*Latest output:\nfirst/);
    const polled = await call(processTool, { action: 'poll', sessionId, waitMs: 10_000 });
    expect(polled.details).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(textOf(polled)).toMatch(/first\nsecond\ntail\n\[exit code 0; no newline at end of output;/);
    expect(textOf(await call(processTool, { action: 'log', sessionId, offset: 2, limit: 1 }))).toBe('second\n[Lines 2-2 of 3. Use offset 3 to continue.]');
    expect(textOf(await call(processTool, { action: 'log', sessionId, offset: 9 }))).toBe(`${sessionId} has 3 lines of output; offset 9 is past the end.`);
    expect(textOf(await call(processTool, { action: 'list' }))).toMatch(new RegExp(`${sessionId}  completed \\(exit code 0\\)`));
  });

  it('says a finished run had already ended instead of claiming to kill it', async () => {
    const sessionId = sessionIdOf(await call(execTool, { command: 'true', background: true }));
    await call(processTool, { action: 'poll', sessionId, waitMs: 5_000 });
    const killed = await call(processTool, { action: 'kill', sessionId });
    expect(textOf(killed)).toMatch(/It had already ended; nothing was killed\.$/);
    expect(textOf(killed)).not.toMatch(/^Killed/);
  });

  it('kills a running background run with its child processes, and only then says so', async () => {
    const pidFile = path.join(t.dir, 'bg.pid');
    const sessionId = sessionIdOf(await call(execTool, { command: `sleep 1000 & echo $! > ${pidFile}; wait`, background: true }));
    await expect.poll(() => fs.readFile(pidFile, 'utf8').catch(() => ''), { timeout: 5_000 }).toMatch(/\d+/);
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    const killed = await call(processTool, { action: 'kill', sessionId });
    expect(textOf(killed)).toMatch(/^Killed run_\w+ and its whole process group/);
    expect(killed.details).toMatchObject({ status: 'killed' });
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });

  it('reports the real timeout of a background run', async () => {
    const sessionId = sessionIdOf(await call(execTool, { command: 'sleep 5', background: true, timeout: 1 }));
    const polled = await call(processTool, { action: 'poll', sessionId, waitMs: 10_000 });
    expect(errorCodeOf(polled)).toBe('EXEC_TIMEOUT');
    expect(textOf(polled)).toMatch(/timed out after 1 s/);
  });

  it('explains a missing sessionId and an unknown one', async () => {
    expect(errorCodeOf(await call(processTool, { action: 'poll' }))).toBe('INVALID_ARGUMENT');
    expect(errorCodeOf(await call(processTool, { action: 'log', sessionId: 'run_nope' }))).toBe('NO_SUCH_RUN');
  });
});

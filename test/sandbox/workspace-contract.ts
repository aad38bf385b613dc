import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ExecOutputSegment, WorkspaceService } from '../../protocol/v1/workspace-types.js';
import type { SandboxError } from '../../sdk/sandbox/errors.js';

export interface OpenedForTest {
  ws: WorkspaceService;
  /** Host directory of the workspace (what a docker bind or ssh upload came from). */
  hostDir: string;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as SandboxError).code;
  }
  return 'NO_ERROR';
}

/** The attacks every shell-backed workspace must refuse, run against a real backend. */
export function workspaceAttackTests(get: () => OpenedForTest, base: number): void {
  // Distinct sleep durations per backend: ssh runs on this host and sees docker's processes too.
  const n = (k: number) => String(base + k);
  const PS = 'ps -eo args 2>/dev/null || ps -o args';
  it('refuses ../ traversal out of the workspace', async () => {
    const { ws } = get();
    await expect(ws.read('../../etc/passwd')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_MOUNT', message: expect.stringContaining('escapes allowed mounts') });
    expect(await codeOf(ws.write('../outside.txt', 'x'))).toBe('PATH_OUTSIDE_MOUNT');
  });

  it('refuses absolute paths outside the mounts', async () => {
    const { ws } = get();
    expect(await codeOf(ws.read('/etc/passwd'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(ws.readDirectory('/'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(ws.exec('true', { cwd: '/tmp' }))).toBe('PATH_OUTSIDE_MOUNT');
  });

  it('refuses a symlink inside the workspace that points to /etc or to the root', async () => {
    const { ws } = get();
    await expect(ws.read('etc-link/passwd')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_MOUNT', message: expect.stringContaining('resolves to /etc/passwd') });
    expect(await codeOf(ws.write('root-link/tmp/pwned', 'x'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(ws.readDirectory('root-link'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(ws.exec('true', { cwd: 'etc-link' }))).toBe('PATH_OUTSIDE_MOUNT');
  });

  it('follows a symlink that stays inside the workspace', async () => {
    const { ws } = get();
    const r = await ws.read('inner-link');
    expect(r.content).toBe('hello world\n');
    expect(r.path).toBe('/workspace/hello.txt');
  });

  it('removes a symlink itself, never its target', async () => {
    const { ws } = get();
    await ws.write('to-remove-link-target.txt', 'keep');
    await ws.exec('ln -s /etc etc-link-2');
    await ws.remove('etc-link-2');
    expect(await codeOf(ws.stat('etc-link-2'))).toBe('NOT_FOUND');
    expect((await ws.exec('test -f /etc/passwd && echo present')).stdout).toBe('present\n');
  });

  it('refuses writes to the read-only skills directory even though the workspace is writable', async () => {
    const { ws, hostDir } = get();
    await expect(ws.write('skills/demo/SKILL.md', 'rewritten')).rejects.toMatchObject({ code: 'READ_ONLY_MOUNT', message: expect.stringContaining('read-only') });
    expect(await codeOf(ws.remove('skills', { recursive: true }))).toBe('READ_ONLY_MOUNT');
    expect(await codeOf(ws.rename('skills/demo/SKILL.md', 'stolen.md'))).toBe('READ_ONLY_MOUNT');
    expect((await ws.read('skills/demo/SKILL.md')).content).toContain('name: demo');
    expect(readFileSync(join(hostDir, 'skills', 'demo', 'SKILL.md'), 'utf8')).toContain('Do things.');
  });

  it('kills a background process that would outlive its call', async () => {
    const { ws } = get();
    const started = Date.now();
    const r = await ws.exec(`sleep ${n(17)} & echo started`);
    expect(r.stdout).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(10_000);
    const ps = await ws.exec(PS);
    expect(ps.stdout).not.toMatch(new RegExp(`sleep ${n(17)}`));
  });

  it('caps an output flood and stays responsive', async () => {
    const { ws } = get();
    const r = await ws.exec('head -c 20000000 /dev/zero | tr "\\0" x', { maxOutputBytes: 65_536 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(65_536);
    expect(r.exitCode).toBe(0);
    const endless = await ws.exec('yes', { maxOutputBytes: 4096, timeoutMs: 1500 });
    expect(endless).toMatchObject({ timedOut: true, truncated: true, exitCode: null, signal: 'SIGKILL' });
    expect(endless.stdout.length).toBeLessThanOrEqual(4096);
  });

  it('kills the whole process group on timeout', async () => {
    const { ws } = get();
    const r = await ws.exec(`sleep ${n(18)} & sleep ${n(19)}; echo never`, { timeoutMs: 800 });
    expect(r).toMatchObject({ timedOut: true, exitCode: null });
    expect(r.stdout).not.toContain('never');
    const ps = await ws.exec(PS);
    expect(ps.stdout).not.toMatch(new RegExp(`sleep (${n(18)}|${n(19)})`));
  });

  it('cancels a running command and kills it', async () => {
    const { ws } = get();
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('user stop')), 400);
    await expect(ws.exec(`sleep ${n(21)}`, {}, ac.signal)).rejects.toMatchObject({ code: 'CANCELLED' });
    const ps = await ws.exec(PS);
    expect(ps.stdout).not.toMatch(new RegExp(`sleep ${n(21)}`));
  });

  it('writes atomically through a temp file and leaves no temp behind', async () => {
    const { ws } = get();
    await ws.write('deep/er/file.txt', 'one', { mkdirs: true });
    await ws.write('deep/er/file.txt', '+two', { append: true });
    expect((await ws.read('deep/er/file.txt')).content).toBe('one+two');
    const names = (await ws.readDirectory('deep/er')).map((e) => e.name);
    expect(names).toEqual(['file.txt']);
    expect(existsSync(get().hostDir)).toBe(true);
  });
}

/**
 * Commands whose stdout and stderr interleave, each output as the local backend gives it, byte
 * for byte (output-order.test.ts checks that reference). The pauses make the arrival order
 * certain: across two pipes, writes a few microseconds apart may arrive either way round.
 */
export const INTERLEAVED: ReadonlyArray<{ name: string; command: string; output: ExecOutputSegment[]; strayProcessesKilled?: true }> = [
  {
    name: 'a stderr line between two stdout lines',
    command: 'echo first; sleep 0.2; echo warn >&2; sleep 0.2; echo second',
    output: [{ stream: 'stdout', text: 'first\n' }, { stream: 'stderr', text: 'warn\n' }, { stream: 'stdout', text: 'second\n' }],
  },
  {
    name: 'stderr ending in the first byte of the stray marker, then stdout, then a stray killed',
    command: 'sleep 30 & echo first; sleep 0.2; printf "warn_" >&2; sleep 0.2; echo second',
    output: [{ stream: 'stdout', text: 'first\n' }, { stream: 'stderr', text: 'warn_' }, { stream: 'stdout', text: 'second\n' }],
    strayProcessesKilled: true,
  },
];

/** Adjacent pieces of one stream as one segment, as a result's `output` has them. */
export function mergeSegments(pieces: readonly ExecOutputSegment[]): ExecOutputSegment[] {
  const out: ExecOutputSegment[] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && last.stream === p.stream && last.stream !== 'omitted' && p.stream !== 'omitted') last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/** The output order every workspace keeps, in the result and in what a listener hears while it runs. */
export function workspaceOutputOrderTests(get: () => OpenedForTest): void {
  for (const c of INTERLEAVED) {
    it(`keeps the order of ${c.name}, in the result and in the live output, as the local backend does`, async () => {
      const heard: ExecOutputSegment[] = [];
      const r = await get().ws.exec(c.command, {}, undefined, (pieces) => heard.push(...pieces));
      expect(r.output).toEqual(c.output);
      const text = (stream: string) => c.output.map((s) => (s.stream === stream && 'text' in s ? s.text : '')).join('');
      expect([r.stdout, r.stderr]).toEqual([text('stdout'), text('stderr')]);
      expect(r.strayProcessesKilled === true).toBe(c.strayProcessesKilled === true);
      expect(mergeSegments(heard)).toEqual(c.output);
    });
  }
}

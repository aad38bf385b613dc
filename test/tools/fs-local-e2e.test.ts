import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';
import { applyPatchTool } from '../../plugins/fs/src/tools/apply-patch.js';
import { editTool } from '../../plugins/fs/src/tools/edit.js';
import { writeTool } from '../../plugins/fs/src/tools/write.js';
import { callTool, errorCodeOf, tempWorkspace, textOf, type TempWorkspace } from './helpers.js';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
const pad = (n: number) => String(n).padStart(6, '0');

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(async () => {
  await t.cleanup();
});

describe('fs tools on the real local backend', () => {
  it('lose no line of a process that appends to a 4 MB file while edit and apply_patch run (CONFLICT instead)', async () => {
    const big = path.join(t.dir, 'big.log');
    await fs.writeFile(big, Array.from({ length: 360_000 }, (_, i) => `line ${pad(i)}\n`).join('').slice(0, 4 * 1024 * 1024).replace(/[^\n]*$/, ''));
    await t.file('small.txt', 'small\n');
    const stop = path.join(t.dir, '..', `${path.basename(t.dir)}.stop`);
    const counted = `${stop}.count`;
    const writer = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); const [file, stop, count] = process.argv.slice(1); const nap = new Int32Array(new SharedArrayBuffer(4));
       let i = 0; for (; !fs.existsSync(stop); i += 1) { fs.appendFileSync(file, 'appended ' + String(i).padStart(6, '0') + '\\n'); Atomics.wait(nap, 0, 0, 1); }
       fs.writeFileSync(count, String(i));`,
      big,
      stop,
      counted,
    ]);
    try {
      await waitFor('the writer to start', async () => (await fs.readFile(big, 'utf8')).includes('appended 000000'));
      const outcomes: { edited: string; code?: string }[] = [];
      for (let k = 1; k <= 8; k += 1) {
        const edited = `line ${pad(k * 1000)}`;
        const result = await callTool(editTool, { path: 'big.log', oldText: `${edited}\n`, newText: `${edited.toUpperCase()}\n` }, t.workspace);
        outcomes.push({ edited, code: errorCodeOf(result) });
        const patched = `line ${pad(k * 1000 + 1)}`;
        const input = patch('*** Update File: small.txt', `-${k === 1 ? 'small' : `small ${k - 1}`}`, `+small ${k}`, '*** Update File: big.log', '@@', `-${patched}`, `+${patched.toUpperCase()}`);
        const result2 = await callTool(applyPatchTool, { input }, t.workspace);
        outcomes.push({ edited: patched, code: errorCodeOf(result2) });
        if (errorCodeOf(result2) === undefined) continue;
        // Refused as a whole: the small file is back to what it was.
        expect(result2.details).toMatchObject({ rolledBack: true });
        await t.file('small.txt', `small ${k}\n`);
      }
      await fs.writeFile(stop, '');
      await waitFor('the writer to stop', () => existsSync(counted));
      const appends = Number(readFileSync(counted, 'utf8'));
      const text = await fs.readFile(big, 'utf8');
      const appended = text.split('\n').filter((l) => l.startsWith('appended '));
      expect(appended).toEqual(Array.from({ length: appends }, (_, i) => `appended ${pad(i)}`));
      for (const { edited, code } of outcomes) {
        expect([undefined, 'CONFLICT']).toContain(code);
        expect(text.includes(`${code === undefined ? edited.toUpperCase() : edited}\n`)).toBe(true);
      }
      // The writer really raced the tools (else this test proves nothing).
      expect(outcomes.some((o) => o.code === 'CONFLICT')).toBe(true);
    } finally {
      await fs.writeFile(stop, '').catch(() => undefined);
      writer.kill();
      await fs.rm(stop, { force: true });
      await fs.rm(counted, { force: true });
    }
  });

  it('keeps modes under umask 077: an edited 0755 script, an overwritten 0664 file, a moved 0755 script', async () => {
    const previous = process.umask(0o077);
    try {
      await t.file('run.sh', '#!/bin/sh\necho one\n');
      await fs.chmod(path.join(t.dir, 'run.sh'), 0o755);
      await t.file('shared.txt', 'one\n');
      await fs.chmod(path.join(t.dir, 'shared.txt'), 0o664);
      await t.file('tool.sh', '#!/bin/sh\necho tool\n');
      await fs.chmod(path.join(t.dir, 'tool.sh'), 0o755);
      expect((await callTool(editTool, { path: 'run.sh', oldText: 'one', newText: 'two' }, t.workspace)).isError).toBeUndefined();
      expect((await callTool(writeTool, { path: 'shared.txt', content: 'two\n' }, t.workspace)).isError).toBeUndefined();
      const moved = await callTool(applyPatchTool, { input: patch('*** Update File: tool.sh', '*** Move to: bin/tool.sh', '-echo tool', '+echo moved') }, t.workspace);
      expect(moved.isError).toBeUndefined();
      const mode = async (f: string) => (await fs.stat(path.join(t.dir, f))).mode & 0o7777;
      expect([await mode('run.sh'), await mode('shared.txt'), await mode('bin/tool.sh')]).toEqual([0o755, 0o664, 0o755]);
      expect(await t.text('bin/tool.sh')).toBe('#!/bin/sh\necho moved\n');
    } finally {
      process.umask(previous);
    }
  });

  it('keeps the owner of a file another user owns through edit and apply_patch (the backend may: it runs as root here)', async () => {
    await t.file('theirs.txt', 'one\n');
    await t.file('also.txt', 'two\n');
    for (const f of ['theirs.txt', 'also.txt']) await fs.chown(path.join(t.dir, f), 4321, 4321);
    expect((await callTool(editTool, { path: 'theirs.txt', oldText: 'one', newText: 'ONE' }, t.workspace)).isError).toBeUndefined();
    expect((await callTool(applyPatchTool, { input: patch('*** Update File: also.txt', '-two', '+TWO') }, t.workspace)).isError).toBeUndefined();
    for (const f of ['theirs.txt', 'also.txt']) expect(await fs.stat(path.join(t.dir, f))).toMatchObject({ uid: 4321, gid: 4321 });
    expect(await t.text('theirs.txt')).toBe('ONE\n');
  });

  it('refuses to edit or patch a hard-linked file, and its twin keeps its text', async () => {
    await t.file('a.txt', 'shared\n');
    await fs.link(path.join(t.dir, 'a.txt'), path.join(t.dir, 'twin.txt'));
    expect(errorCodeOf(await callTool(editTool, { path: 'a.txt', oldText: 'shared', newText: 'split' }, t.workspace))).toBe('HARD_LINKED');
    expect(errorCodeOf(await callTool(applyPatchTool, { input: patch('*** Update File: twin.txt', '-shared', '+split') }, t.workspace))).toBe('HARD_LINKED');
    expect(await t.text('twin.txt')).toBe('shared\n');
    expect((await fs.stat(path.join(t.dir, 'a.txt'))).ino).toBe((await fs.stat(path.join(t.dir, 'twin.txt'))).ino);
  });

  it('edits a file whose name is 250 bytes long', async () => {
    const name = `${'n'.repeat(246)}.txt`;
    await t.file(name, 'old\n');
    expect((await callTool(editTool, { path: name, oldText: 'old', newText: 'new' }, t.workspace)).isError).toBeUndefined();
    expect(await t.text(name)).toBe('new\n');
  });

  it('on a backend with protected paths: refuses, without coaching, and undoes a patch that reached one', async () => {
    const workspace = new LocalWorkspace({ workspaceDir: t.dir, protectedPaths: ['pincer.config.json', '.pincer', '.git'] });
    await t.file('pincer.config.json', '{"tools":{"deny":["exec"]}}\n');
    await t.file('.git/config', '[core]\n');
    await t.file('a.txt', 'a\n');
    await fs.symlink('.git/config', path.join(t.dir, 'innocent.txt'));
    const refusals = [
      await callTool(writeTool, { path: 'pincer.config.json', content: '{}' }, workspace),
      await callTool(editTool, { path: 'innocent.txt', oldText: '[core]', newText: '[x]' }, workspace),
      await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '-a', '+A', '*** Delete File: .git/config') }, workspace),
      await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '*** Move to: .pincer/a.txt', '-a', '+A') }, workspace),
    ];
    for (const refused of refusals) {
      expect(errorCodeOf(refused)).toBe('PROTECTED_PATH');
      expect(textOf(refused)).not.toMatch(/protectedPaths|tools\.[a-z]|to (change|lift|remove|disable)|allow/i);
    }
    expect(await t.text('pincer.config.json')).toBe('{"tools":{"deny":["exec"]}}\n');
    expect(await t.text('.git/config')).toBe('[core]\n');
    expect(await t.text('a.txt')).toBe('a\n');
    expect((await fs.readdir(t.dir)).sort()).toEqual(['.git', 'a.txt', 'innocent.txt', 'pincer.config.json']);
  });
});

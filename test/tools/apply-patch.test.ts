import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../plugins/fs/src/tools/apply-patch.js';
import { parsePatch } from '../../plugins/fs/src/tools/patch-parse.js';
import { applyChunks } from '../../plugins/fs/src/tools/patch-chunks.js';
import type { WorkspaceService } from '../../protocol/index.js';
import { callTool, errorCodeOf, tempWorkspace, textOf, type TempWorkspace } from './helpers.js';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(async () => {
  await t.cleanup();
});

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('apply_patch parsing', () => {
  it('parses add, delete, update with move, context and end-of-file chunks', () => {
    const hunks = parsePatch(
      patch('*** Add File: new.txt', '+hello', '*** Delete File: old.txt', '*** Update File: a.ts', '*** Move to: b.ts', '@@ function f() {', '-  return 1;', '+  return 2;', '@@', ' tail', '+end', '*** End of File'),
    );
    expect(hunks).toEqual([
      { kind: 'add', path: 'new.txt', contents: 'hello\n' },
      { kind: 'delete', path: 'old.txt' },
      {
        kind: 'update',
        path: 'a.ts',
        movePath: 'b.ts',
        chunks: [
          { context: 'function f() {', lines: [{ op: '-', text: '  return 1;' }, { op: '+', text: '  return 2;' }], endOfFile: false },
          { lines: [{ op: ' ', text: 'tail' }, { op: '+', text: 'end' }], endOfFile: true },
        ],
      },
    ]);
  });

  it('names the broken line of an invalid patch', () => {
    expect(() => parsePatch('*** Update File: a')).toThrow(/first line.*Begin Patch/);
    expect(() => parsePatch(patch('*** Frobnicate: a'))).toThrow(/Line 2: .*not a valid hunk header/);
    expect(() => parsePatch(patch('*** Update File: a', '@@', '?bad'))).toThrow(/Line 4: .*must start with/);
  });
});

describe('apply_patch chunk matching', () => {
  it('keeps CRLF endings and a missing final newline', () => {
    const chunks = [{ lines: [{ op: '-' as const, text: 'b' }, { op: '+' as const, text: 'B' }], endOfFile: false }];
    expect(applyChunks('a\r\nb\r\nc', chunks, 'f')).toBe('a\r\nB\r\nc');
  });

  it('tolerates trailing whitespace and typographic quotes in copied lines', () => {
    const chunks = [{ lines: [{ op: '-' as const, text: 'say(“hi”)  ' }, { op: '+' as const, text: 'say("bye")' }], endOfFile: false }];
    expect(applyChunks('say("hi")\n', chunks, 'f')).toBe('say("bye")\n');
  });
});

describe('apply_patch tool', () => {
  it('adds, updates, moves and deletes files in one patch', async () => {
    await t.file('src/a.ts', 'export function f() {\n  return 1;\n}\n');
    await t.file('old.txt', 'bye');
    await t.file('m.txt', 'one\ntwo\n');
    const result = await callTool(
      applyPatchTool,
      {
        input: patch(
          '*** Add File: docs/new.md',
          '+# New',
          '*** Update File: src/a.ts',
          '@@ export function f() {',
          '-  return 1;',
          '+  return 2;',
          '*** Delete File: old.txt',
          '*** Update File: m.txt',
          '*** Move to: moved/m.txt',
          '@@',
          ' one',
          '-two',
          '+deux',
        ),
      },
      t.workspace,
    );
    expect(textOf(result)).toBe('Applied patch:\nA docs/new.md\nM src/a.ts\nD old.txt\nR m.txt -> moved/m.txt');
    expect(await t.text('docs/new.md')).toBe('# New\n');
    expect(await t.text('src/a.ts')).toBe('export function f() {\n  return 2;\n}\n');
    expect(await t.text('moved/m.txt')).toBe('one\ndeux\n');
    expect((await fs.readdir(t.dir)).sort()).toEqual(['docs', 'moved', 'src']);
  });

  it('changes nothing when one hunk of many does not match', async () => {
    await t.file('a.txt', 'alpha\n');
    await t.file('b.txt', 'beta\n');
    await t.file('gone.txt', 'keep me');
    const result = await callTool(
      applyPatchTool,
      {
        input: patch('*** Update File: a.txt', '@@', '-alpha', '+ALPHA', '*** Delete File: gone.txt', '*** Add File: c.txt', '+c', '*** Update File: b.txt', '@@', '-not in the file', '+x'),
      },
      t.workspace,
    );
    expect(errorCodeOf(result)).toBe('PATCH_CONFLICT');
    expect(textOf(result)).toMatch(/Could not find these lines in b.txt[\s\S]*Nothing was changed/);
    expect(await t.text('a.txt')).toBe('alpha\n');
    expect(await t.text('gone.txt')).toBe('keep me');
    expect((await fs.readdir(t.dir)).sort()).toEqual(['a.txt', 'b.txt', 'gone.txt']);
  });

  it('refuses to add a file that exists and to touch one path twice', async () => {
    await t.file('a.txt', 'a\n');
    expect(errorCodeOf(await callTool(applyPatchTool, { input: patch('*** Add File: a.txt', '+x') }, t.workspace))).toBe('PATCH_CONFLICT');
    const twice = await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '-a', '+b', '*** Delete File: a.txt') }, t.workspace);
    expect(textOf(twice)).toMatch(/more than once/);
    expect(await t.text('a.txt')).toBe('a\n');
  });

  it('refuses a patch that reaches outside the workspace before writing anything', async () => {
    await t.file('a.txt', 'a\n');
    const result = await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '-a', '+b', '*** Add File: ../escape.txt', '+x') }, t.workspace);
    expect(errorCodeOf(result)).toBe('PATH_OUTSIDE_MOUNT');
    expect(await t.text('a.txt')).toBe('a\n');
    await expect(fs.access(path.join(t.dir, '..', 'escape.txt'))).rejects.toThrow();
  });

  it('undoes the writes already made when a later write fails', async () => {
    await t.file('a.txt', 'a\n');
    await t.file('b.txt', 'b\n');
    // A workspace whose second write fails: the disk-full case, after validation passed.
    let writes = 0;
    const flaky: WorkspaceService = Object.create(t.workspace);
    flaky.write = async (p, c, o, s) => {
      writes += 1;
      if (writes === 2) throw Object.assign(new Error('No space left on device'), { code: 'IO_ERROR' });
      return t.workspace.write(p, c, o, s);
    };
    const result = await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B') }, flaky as never);
    expect(errorCodeOf(result)).toBe('IO_ERROR');
    expect(textOf(result)).toMatch(/undone; no file changed/);
    expect(result.details).toMatchObject({ rolledBack: true });
    expect(await t.text('a.txt')).toBe('a\n');
    expect(await t.text('b.txt')).toBe('b\n');
  });

  it('explains a malformed patch', async () => {
    const result = await callTool(applyPatchTool, { input: 'diff --git a/x b/x' }, t.workspace);
    expect(errorCodeOf(result)).toBe('PATCH_PARSE_ERROR');
    expect(textOf(result)).toMatch(/Begin Patch/);
  });
});

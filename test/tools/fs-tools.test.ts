import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lsTool } from '../../plugins/fs/src/tools/ls.js';
import { readTool, READ_MAX_BYTES } from '../../plugins/fs/src/tools/read.js';
import { writeTool } from '../../plugins/fs/src/tools/write.js';
import { editTool } from '../../plugins/fs/src/tools/edit.js';
import { callTool, errorCodeOf, tempWorkspace, textOf, type TempWorkspace } from './helpers.js';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(async () => {
  await t.cleanup();
});

describe('ls tool', () => {
  it('lists directories first, marks links and hides dotfiles unless asked', async () => {
    await t.file('b.txt', 'bb');
    await t.file('src/a.ts', 'a');
    await t.file('.env', 'x');
    await fs.symlink('/etc/passwd', path.join(t.dir, 'link'));
    const result = await callTool(lsTool, {}, t.workspace);
    expect(textOf(result)).toBe('src/\nb.txt  (2 B)\nlink@');
    expect(result.details).toMatchObject({ total: 3, hidden: 1, truncated: false });
    expect(textOf(await callTool(lsTool, { all: true }, t.workspace))).toContain('.env');
  });

  it('explains a missing directory and a path outside the workspace', async () => {
    const missing = await callTool(lsTool, { path: 'nope' }, t.workspace);
    expect(missing.isError).toBe(true);
    expect(errorCodeOf(missing)).toBe('NOT_FOUND');
    expect(textOf(missing)).toMatch(/Hint: .*ls/);
    expect(errorCodeOf(await callTool(lsTool, { path: '/etc' }, t.workspace))).toBe('PATH_NOT_ADMITTED');
    expect(errorCodeOf(await callTool(lsTool, { path: '../..' }, t.workspace))).toBe('PATH_OUTSIDE_MOUNT');
  });
});

describe('read tool', () => {
  it('returns the requested line window and says how to continue', async () => {
    await t.file('lines.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const result = await callTool(readTool, { path: 'lines.txt', offset: 3, limit: 2 }, t.workspace);
    expect(textOf(result)).toBe('line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]');
    expect(result.details).toMatchObject({ totalLines: 10, startLine: 3, endLine: 4, truncated: true });
    expect(textOf(await callTool(readTool, { path: 'lines.txt', offset: 9 }, t.workspace))).toBe('line 9\nline 10');
  });

  it('refuses an offset past the end with the valid range', async () => {
    await t.file('a.txt', 'one\ntwo\n');
    const result = await callTool(readTool, { path: 'a.txt', offset: 5 }, t.workspace);
    expect(errorCodeOf(result)).toBe('INVALID_ARGUMENT');
    expect(textOf(result)).toMatch(/between 1 and 2/);
  });

  it('refuses a binary file with a clear message and returns it as base64 on request', async () => {
    await t.file('img.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff, 0xfe]));
    const refused = await callTool(readTool, { path: 'img.bin' }, t.workspace);
    expect(errorCodeOf(refused)).toBe('BINARY_FILE');
    expect(textOf(refused)).toMatch(/binary file \(10 bytes\).*\n.*base64/);
    const base64 = await callTool(readTool, { path: 'img.bin', encoding: 'base64' }, t.workspace);
    expect(Buffer.from(textOf(base64), 'base64')).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff, 0xfe]));
  });

  it('refuses a huge file with FILE_TOO_LARGE and a hint to read a slice', async () => {
    await t.file('huge.log', Buffer.alloc(READ_MAX_BYTES + 1, 0x61));
    const result = await callTool(readTool, { path: 'huge.log' }, t.workspace);
    expect(errorCodeOf(result)).toBe('FILE_TOO_LARGE');
    expect(textOf(result)).toMatch(/sed -n/);
  });

  it('explains a missing file and a symlink that points out of the workspace', async () => {
    expect(errorCodeOf(await callTool(readTool, { path: 'missing.txt' }, t.workspace))).toBe('NOT_FOUND');
    await fs.symlink('/etc/passwd', path.join(t.dir, 'passwd'));
    const escaped = await callTool(readTool, { path: 'passwd' }, t.workspace);
    expect(errorCodeOf(escaped)).toBe('PATH_OUTSIDE_MOUNT');
    expect(textOf(escaped)).not.toContain('root:');
  });

  it('caps one result by characters but always makes progress on a giant line', async () => {
    await t.file('wide.txt', `${'x'.repeat(200_000)}\nnext\n`);
    const result = await callTool(readTool, { path: 'wide.txt' }, t.workspace);
    expect(result.details).toMatchObject({ endLine: 1, truncated: true });
  });
});

describe('write tool', () => {
  it('creates parent directories and reports the bytes written', async () => {
    const result = await callTool(writeTool, { path: 'a/b/c.txt', content: 'héllo' }, t.workspace);
    expect(textOf(result)).toBe('Wrote 6 bytes to /workspace/a/b/c.txt');
    expect(await t.text('a/b/c.txt')).toBe('héllo');
  });

  it('refuses a write outside the workspace and leaves nothing behind', async () => {
    const result = await callTool(writeTool, { path: '/tmp/pincer-escape.txt', content: 'x' }, t.workspace);
    expect(errorCodeOf(result)).toBe('PATH_NOT_ADMITTED');
    await expect(fs.access('/tmp/pincer-escape.txt')).rejects.toThrow();
  });

  it('requires path and content in its schema', () => {
    const schema = writeTool.inputSchema as { safeParse(v: unknown): { success: boolean } };
    expect(schema.safeParse({ path: 'a' }).success).toBe(false);
  });
});

describe('edit tool', () => {
  it('replaces text that occurs exactly once', async () => {
    await t.file('a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await callTool(editTool, { path: 'a.ts', oldText: 'const b = 2;', newText: 'const b = 3;' }, t.workspace);
    expect(result.isError).toBeUndefined();
    expect(result.details).toMatchObject({ replacements: 1, lines: [2] });
    expect(await t.text('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('refuses an ambiguous match unless replaceAll, naming the lines', async () => {
    await t.file('a.ts', 'x();\ny();\nx();\n');
    const refused = await callTool(editTool, { path: 'a.ts', oldText: 'x();', newText: 'z();' }, t.workspace);
    expect(errorCodeOf(refused)).toBe('AMBIGUOUS_MATCH');
    expect(textOf(refused)).toMatch(/2 times.*lines 1, 3/);
    expect(await t.text('a.ts')).toBe('x();\ny();\nx();\n');
    await callTool(editTool, { path: 'a.ts', oldText: 'x();', newText: 'z();', replaceAll: true }, t.workspace);
    expect(await t.text('a.ts')).toBe('z();\ny();\nz();\n');
  });

  it('explains a miss and points at a line that differs only in indentation', async () => {
    await t.file('a.py', 'def f():\n    return 1\n');
    const result = await callTool(editTool, { path: 'a.py', oldText: 'return 1\n  ', newText: 'return 2' }, t.workspace);
    expect(errorCodeOf(result)).toBe('NO_MATCH');
    expect(textOf(result)).toMatch(/line 2/);
  });

  it('keeps CRLF line endings when the model writes LF', async () => {
    await t.file('win.txt', 'one\r\ntwo\r\nthree\r\n');
    await callTool(editTool, { path: 'win.txt', oldText: 'one\ntwo', newText: 'uno\ndos' }, t.workspace);
    expect(await t.text('win.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('refuses a no-op edit and a binary file', async () => {
    await t.file('a.txt', 'a');
    expect(errorCodeOf(await callTool(editTool, { path: 'a.txt', oldText: 'a', newText: 'a' }, t.workspace))).toBe('NO_CHANGE');
    await t.file('b.bin', Buffer.from([0, 1, 2]));
    expect(errorCodeOf(await callTool(editTool, { path: 'b.bin', oldText: '\u0001', newText: 'x' }, t.workspace))).toBe('BINARY_FILE');
  });
});

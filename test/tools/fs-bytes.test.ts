import { afterEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../plugins/fs/src/tools/apply-patch.js';
import { editTool } from '../../plugins/fs/src/tools/edit.js';
import { readTool } from '../../plugins/fs/src/tools/read.js';
import { writeTool } from '../../plugins/fs/src/tools/write.js';
import { localFixture, memoryFixture, type FsFixture } from './fs-fixtures.js';
import { callTool, errorCodeOf, textOf } from './helpers.js';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
const latin1 = (text: string) => Buffer.from(text, 'latin1');

const fixtures: [string, () => Promise<FsFixture>][] = [
  ['memory workspace', async () => memoryFixture()],
  ['local backend', localFixture],
];

describe.each(fixtures)('fs tools keep every byte they were not asked to change (%s)', (_name, make) => {
  let f: FsFixture;
  const call = async (tool: Parameters<typeof callTool>[0], args: Record<string, unknown>) => callTool(tool, args, f.workspace);
  afterEach(async () => {
    await f.cleanup();
  });

  describe('non-UTF-8 text (issue 21 item 1)', () => {
    it('refuses to edit a Latin-1 file with NOT_UTF8 naming the first bad byte, and writes nothing', async () => {
      f = await make();
      const before = latin1('caf\xe9\nline 2\nline 3\n');
      await f.put('latin.txt', before);
      const result = await call(editTool, { path: 'latin.txt', oldText: 'line 3', newText: 'LINE 3' });
      expect(errorCodeOf(result)).toBe('NOT_UTF8');
      expect(textOf(result)).toMatch(/byte 0xe9 at offset 3, line 1/);
      expect(textOf(result)).toMatch(/Hint: Nothing was changed/);
      expect(await f.bytes('latin.txt')).toEqual(before);
    });

    it('refuses to patch a Latin-1 file and leaves it byte for byte', async () => {
      f = await make();
      const before = latin1('caf\xe9\nline 2\nline 3\n');
      await f.put('latin.txt', before);
      const result = await call(applyPatchTool, { input: patch('*** Update File: latin.txt', '@@', ' line 2', '-line 3', '+LINE 3') });
      expect(errorCodeOf(result)).toBe('NOT_UTF8');
      expect(await f.bytes('latin.txt')).toEqual(before);
    });

    it('looks at the whole file: bytes 0x80-0xFF after 9 KiB of text refuse the edit and the size stays 9,142', async () => {
      f = await make();
      const text = Buffer.from('word '.repeat(1803)); // 9,015 bytes
      const before = Buffer.concat([text.subarray(0, 9014), Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i))]);
      expect(before.length).toBe(9142);
      await f.put('tail.txt', before);
      expect(errorCodeOf(await call(editTool, { path: 'tail.txt', oldText: 'word', newText: 'WORD' , replaceAll: true }))).toBe('NOT_UTF8');
      expect(await f.bytes('tail.txt')).toEqual(before);
      const read = await call(readTool, { path: 'tail.txt' });
      expect(read.isError).toBeUndefined();
      expect(textOf(read)).toMatch(/\[Not valid UTF-8 \(first invalid byte at offset 9014\)/);
    });

    it('edits valid UTF-8 (CJK, emoji, a literal U+FFFD, `$&`) and changes only the matched bytes', async () => {
      f = await make();
      await f.put('u.txt', '漢字 🦀 \uFFFD $& end\n');
      const result = await call(editTool, { path: 'u.txt', oldText: '🦀', newText: '$&🦞' });
      expect(result.isError).toBeUndefined();
      expect(await f.bytes('u.txt')).toEqual(Buffer.from('漢字 $&🦞 \uFFFD $& end\n'));
    });

    it('refuses text with an unpaired surrogate instead of writing U+FFFD for it', async () => {
      f = await make();
      await f.put('a.txt', 'a\n');
      expect(errorCodeOf(await call(editTool, { path: 'a.txt', oldText: 'a', newText: 'b\uD800' }))).toBe('INVALID_ARGUMENT');
      expect(errorCodeOf(await call(writeTool, { path: 'b.txt', content: '\uDC00' }))).toBe('INVALID_ARGUMENT');
      expect(await f.bytes('a.txt')).toEqual(Buffer.from('a\n'));
      expect(await f.bytes('b.txt')).toBeUndefined();
    });
  });

  describe('strict base64 (item 7)', () => {
    it.each([['not base64!!! @@@ ###'], ['aGVsbG8=garbage'], ['aGVsbG9='], ['aGVsbG8'], ['aGVs-bG8=']])('refuses %j and writes nothing', async (content) => {
      f = await make();
      await f.put('keep.bin', Buffer.from([1, 2, 3]));
      for (const target of ['keep.bin', 'new.bin']) {
        const result = await call(writeTool, { path: target, content, encoding: 'base64' });
        expect(errorCodeOf(result)).toBe('INVALID_ARGUMENT');
        expect(textOf(result)).toMatch(/content is not valid base64/);
      }
      expect(await f.bytes('keep.bin')).toEqual(Buffer.from([1, 2, 3]));
      expect(await f.bytes('new.bin')).toBeUndefined();
    });

    it('writes wrapped standard base64 as exactly its bytes', async () => {
      f = await make();
      const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));
      const wrapped = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
      expect((await call(writeTool, { path: 'b.bin', content: wrapped, encoding: 'base64' })).isError).toBeUndefined();
      expect(await f.bytes('b.bin')).toEqual(bytes);
    });
  });

  describe('line endings and BOM (item 8)', () => {
    it('apply_patch on a mixed CRLF/LF file keeps each line its own ending, a replacing line that of the line it replaces', async () => {
      f = await make();
      await f.put('mixed.txt', 'a\r\nb\nc\r\nd\r\n');
      const result = await call(applyPatchTool, { input: patch('*** Update File: mixed.txt', '@@', ' a', '-b', '+B', '+B2', ' c') });
      expect(result.isError).toBeUndefined();
      expect((await f.bytes('mixed.txt'))?.toString('latin1')).toBe('a\r\nB\nB2\r\nc\r\nd\r\n');
    });

    it('apply_patch gives inserted lines the file convention and keeps tolerantly matched context as the file has it', async () => {
      f = await make();
      await f.put('win.txt', 'say(“hi”)  \r\nx\r\ny\r\n');
      const result = await call(applyPatchTool, { input: patch('*** Update File: win.txt', '@@', ' say("hi")', '-x', '+X', '+X2', ' y') });
      expect(result.isError).toBeUndefined();
      expect(await f.bytes('win.txt')).toEqual(Buffer.from('say(“hi”)  \r\nX\r\nX2\r\ny\r\n'));
    });

    it('apply_patch replacing the first line of a BOM file keeps the BOM', async () => {
      f = await make();
      await f.put('bom.txt', '\uFEFFfirst\nsecond\n');
      const result = await call(applyPatchTool, { input: patch('*** Update File: bom.txt', '@@', '-first', '+FIRST', ' second') });
      expect(result.isError).toBeUndefined();
      expect(await f.bytes('bom.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('FIRST\nsecond\n')]));
    });

    it('apply_patch keeps a missing final newline, also when a line is added at the end', async () => {
      f = await make();
      await f.put('nofinal.txt', 'a\r\nb');
      await call(applyPatchTool, { input: patch('*** Update File: nofinal.txt', '@@', ' b', '+c', '*** End of File') });
      expect(await f.bytes('nofinal.txt')).toEqual(Buffer.from('a\r\nb\r\nc'));
    });

    it('edit inserting a line into a CRLF file inserts CRLF, and keeps a BOM', async () => {
      f = await make();
      await f.put('win.txt', '\uFEFFone\r\ntwo\r\n');
      const result = await call(editTool, { path: 'win.txt', oldText: 'one', newText: 'one\nuno' });
      expect(result.isError).toBeUndefined();
      expect(await f.bytes('win.txt')).toEqual(Buffer.from('\uFEFFone\r\nuno\r\ntwo\r\n'));
    });

    it('edit of a multi-line region in a mixed file keeps each replaced line ending in place', async () => {
      f = await make();
      await f.put('mixed.txt', 'a\r\nb\nc\r\n');
      await call(editTool, { path: 'mixed.txt', oldText: 'a\nb\nc', newText: 'A\nB\nC' });
      expect((await f.bytes('mixed.txt'))?.toString('latin1')).toBe('A\r\nB\nC\r\n');
    });
  });

  describe('the read cap and read-only files (item 9)', () => {
    it('caps a 3 MB single line at 64 KiB with a note that says how to see the rest', async () => {
      f = await make();
      await f.put('wide.txt', `${'x'.repeat(3_000_000)}\nnext\n`);
      const result = await call(readTool, { path: 'wide.txt' });
      const text = textOf(result);
      expect(text.startsWith('x'.repeat(65_536) + '\n\n[Line 1 has 3000000 characters; only the first 65536 are shown.')).toBe(true);
      expect(text.length).toBeLessThan(65_536 + 400);
      expect(text).toMatch(/Use offset=2 to continue/);
      expect(result.details).toMatchObject({ endLine: 1, truncated: true });
    });

    it('refuses to edit, patch or overwrite a file with no write bit (0444) with READ_ONLY_FILE', async () => {
      f = await make();
      await f.put('ro.txt', 'keep\n', 0o444);
      const edit = await call(editTool, { path: 'ro.txt', oldText: 'keep', newText: 'lost' });
      expect(errorCodeOf(edit)).toBe('READ_ONLY_FILE');
      expect(textOf(edit)).toMatch(/mode 0444/);
      expect(errorCodeOf(await call(applyPatchTool, { input: patch('*** Update File: ro.txt', '-keep', '+lost') }))).toBe('READ_ONLY_FILE');
      expect(errorCodeOf(await call(writeTool, { path: 'ro.txt', content: 'lost' }))).toBe('READ_ONLY_FILE');
      expect(await f.bytes('ro.txt')).toEqual(Buffer.from('keep\n'));
      expect(await f.mode('ro.txt')).toBe(0o444);
    });
  });
});

describe('patch size', () => {
  it('refuses a patch that would rewrite more than 64 MiB of existing files, before changing any', async () => {
    const f = memoryFixture();
    const names = Array.from({ length: 13 }, (_, i) => `big${i}.txt`);
    for (const name of names) await f.put(name, Buffer.alloc(5 * 1024 * 1024, 'a'.charCodeAt(0)));
    const input = patch(...names.flatMap((name) => [`*** Update File: ${name}`, '@@', '-' + 'a'.repeat(5 * 1024 * 1024), '+b']));
    const result = await callTool(applyPatchTool, { input }, f.workspace);
    expect(errorCodeOf(result)).toBe('INVALID_ARGUMENT');
    expect(textOf(result)).toMatch(/more than 64 MiB/);
    expect((await f.bytes('big0.txt'))?.length).toBe(5 * 1024 * 1024);
  });
});

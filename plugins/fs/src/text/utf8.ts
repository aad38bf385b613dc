import { isUtf8 } from 'node:buffer';
import { FsToolError } from '../tools/results.js';

/** Lone UTF-16 surrogates: JSON can carry them, but they have no UTF-8 form and would be written as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuse text that cannot be written as the exact characters the caller sent. */
export function assertWellFormed(text: string, param: string): void {
  const at = text.search(LONE_SURROGATE);
  if (at !== -1) {
    throw new FsToolError('INVALID_ARGUMENT', `${param} contains an unpaired UTF-16 surrogate at character ${at}; it has no UTF-8 encoding`, 'Send the text as valid Unicode, or the bytes with encoding "base64".');
  }
}

/** Byte offset of the first sequence that is not UTF-8, or -1 when the whole buffer is UTF-8. */
export function firstInvalidUtf8(bytes: Buffer): number {
  if (isUtf8(bytes)) return -1;
  // Everything before the first U+FFFD that is not a literal EF BF BD decoded exactly, so its length in bytes is the offset.
  const text = bytes.toString('utf8');
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) {
    const offset = Buffer.byteLength(text.slice(0, i));
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
  }
  return 0; // not reached: isUtf8 said some sequence is invalid
}

/**
 * Decode a file that edit or apply_patch will write back. Only a lossless decode is
 * accepted (a BOM stays in the text as U+FEFF), so re-encoding gives back every byte that
 * was not edited. The whole file is examined, not a prefix.
 */
export function decodeForRewrite(bytes: Buffer, path: string): string {
  if (bytes.includes(0)) {
    throw new FsToolError('BINARY_FILE', `${path} is a binary file (it contains NUL bytes); edit and apply_patch change text files only`, 'Use write with encoding "base64" to replace binary content.');
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) {
    const line = bytes.subarray(0, bad).filter((b) => b === 0x0a).length + 1;
    throw new FsToolError(
      'NOT_UTF8',
      `${path} is not valid UTF-8 (byte 0x${(bytes[bad] as number).toString(16).padStart(2, '0')} at offset ${bad}, line ${line}); editing it would re-encode bytes you did not ask to change`,
      'Nothing was changed. If the file should be converted to UTF-8, do that first with exec (e.g. `iconv -f latin1 -t utf-8`); otherwise replace it whole with write and encoding "base64".',
    );
  }
  return bytes.toString('utf8');
}

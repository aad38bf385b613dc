import { FsToolError } from '../tools/results.js';

const CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Standard base64 (RFC 4648 §4), strictly: line breaks and spaces between groups are allowed
 * and dropped, anything else (other characters, bad padding, non-zero padding bits) is
 * refused, so a typo never becomes bytes on disk. Returns the canonical text.
 */
export function strictBase64(content: string, param: string): string {
  const compact = content.replace(/[\r\n\t ]+/g, '');
  if (!CANONICAL.test(compact) || Buffer.from(compact, 'base64').toString('base64') !== compact) {
    const bad = compact.search(/[^A-Za-z0-9+/=]/);
    const why = bad !== -1 ? `character ${JSON.stringify(compact[bad])} is not in the base64 alphabet` : 'its length or padding is not valid base64';
    throw new FsToolError('INVALID_ARGUMENT', `${param} is not valid base64: ${why}`, 'Nothing was written. Send standard base64 (A-Z, a-z, 0-9, +, /, padded with =), or the text itself with encoding "utf8".');
  }
  return compact;
}

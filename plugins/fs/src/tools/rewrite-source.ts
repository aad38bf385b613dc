import type { WorkspaceService } from '../../../../protocol/index.js';
import { decodeForRewrite } from '../text/utf8.js';
import { READ_MAX_BYTES } from './read.js';
import { FsToolError } from './results.js';

/** A text file about to be rewritten, with what the write-back needs to be exact and safe. */
export interface RewriteSource {
  /** Canonical workspace path: the write goes here, so a re-pointed symlink cannot redirect it. */
  target: string;
  bytes: Buffer;
  /** The lossless decode (a BOM stays as U+FEFF). */
  text: string;
  /** Content version as read; the write-back passes it as expectVersion. */
  version?: string;
  mode?: number;
  isSymbolicLink: boolean;
}

/** No write bit for anyone: the user marked the file read-only, and a tool does not override that. */
export function assertWritable(path: string, mode: number | undefined): void {
  if (mode !== undefined && (mode & 0o222) === 0) {
    throw new FsToolError('READ_ONLY_FILE', `${path} is read-only (mode ${mode.toString(8).padStart(4, '0')}); it was not changed`, 'Leave this file as it is and continue with other files, or tell the user it is read-only.');
  }
}

/**
 * Read a file for edit or apply_patch: raw bytes (base64 on the wire, so nothing is decoded
 * lossily on the way), refused when it is not a writable regular UTF-8 text file.
 */
export async function readForRewrite(workspace: WorkspaceService, path: string, signal: AbortSignal): Promise<RewriteSource> {
  const stat = await workspace.stat(path, signal);
  if (!stat.isFile) throw new FsToolError('INVALID_ARGUMENT', `${path} is ${stat.isDirectory ? 'a directory' : 'not a regular file'}`, 'Name a regular file; list a directory with ls.');
  assertWritable(path, stat.mode);
  const raw = await workspace.read(stat.path, { encoding: 'base64', maxBytes: READ_MAX_BYTES }, signal);
  const bytes = Buffer.from(raw.content, 'base64');
  const text = decodeForRewrite(bytes, path);
  return { target: raw.path, bytes, text, version: raw.version, mode: stat.mode, isSymbolicLink: stat.isSymbolicLink };
}

import { posix } from 'node:path';
import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import type { RemoteCopy } from './remote-copy.js';

/**
 * A host file with more than one hard link is never uploaded (host-scan.ts), so the remote copy
 * simply lacks it. A model that reads or writes it is told why (HARD_LINKED, as the host bridge
 * says it), instead of NOT_FOUND, or a write that could never come back to the host.
 * `target` is the remote path the guard maps the model's path to (lexically).
 */
export function hardLinkedRefusal(target: string, input: string, action: string, copies: readonly RemoteCopy[]): SandboxError | undefined {
  for (const copy of copies) {
    const rel = posix.relative(copy.treeDir, target);
    if (rel === '' || rel.startsWith('../') || rel === '..' || posix.isAbsolute(rel)) continue;
    if (copy.target.hardLinked.has(rel)) {
      return new SandboxError('HARD_LINKED', `Sandbox ${action} refused: ${input} has more than one hard link on the host, so it may be shared with a file outside the workspace; it is not copied to the sandbox host`, { data: { path: input, action } });
    }
  }
  return undefined;
}

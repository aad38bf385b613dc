import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectChannelDirs } from '../../kernel/host/direct-dirs.js';
import { DIRECT_SOCKET_PATH_MAX_BYTES } from '../../protocol/index.js';

// Where the direct-channel sockets may live: never where a cut-short path, an agent's command
// or another user could put a listener of their own in a backend's place.
const saved = process.env.TMPDIR;
const made: string[] = [];
const scratchDir = (mode?: number) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pincer-dirs-'));
  made.push(dir);
  if (mode !== undefined) {
    const sub = path.join(dir, 'shared');
    mkdirSync(sub);
    chmodSync(sub, mode); // past the umask
    return sub;
  }
  return dir;
};

afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dirsWith(tmp: string, workspaceRoots: string[] = []) {
  process.env.TMPDIR = tmp;
  const logged: string[] = [];
  const dirs = new DirectChannelDirs(workspaceRoots, (message) => logged.push(message));
  return { dirs, logged };
}

describe('the direct-channel socket directory', () => {
  it('is a private directory in the temp directory, with a stable slot per plugin', () => {
    const tmp = scratchDir();
    const { dirs } = dirsWith(tmp);
    const socket = dirs.socketFor('sandbox-local')!;
    expect(socket.startsWith(path.join(tmp, 'pincer-direct-'))).toBe(true);
    expect(statSync(dirs.root!).mode & 0o777).toBe(0o700);
    expect(dirs.socketFor('sandbox-local')).toBe(socket);
    expect(dirs.mountsFor('fs')).toEqual({ root: dirs.root, own: expect.stringMatching(/\/1$/) });
    expect(Buffer.byteLength(socket)).toBeLessThanOrEqual(DIRECT_SOCKET_PATH_MAX_BYTES);
    dirs.dispose();
  });

  it('moves to /tmp from a temp directory whose socket paths would be cut short, or that lies in a workspace, or that others may write', () => {
    const long = path.join(scratchDir(), 'x'.repeat(90));
    mkdirSync(long);
    const workspace = scratchDir();
    mkdirSync(path.join(workspace, 'tmp'));
    for (const [tmp, roots, why] of [
      [long, [], /longer than 100 bytes/],
      [path.join(workspace, 'tmp'), [workspace], /inside the workspace/],
      [scratchDir(0o777), [], /writable by others and not sticky/],
    ] as const) {
      const { dirs, logged } = dirsWith(tmp, [...roots]);
      expect(dirs.root!.startsWith('/tmp/pincer-direct-'), String(why)).toBe(true);
      expect(logged).toEqual([]);
      dirs.dispose();
    }
  });

  it('is off, once and said so, when neither place will do: no socket, no mount, every request through the kernel', () => {
    const { dirs, logged } = dirsWith('/tmp', ['/tmp']);
    expect(dirs.socketFor('sandbox-local')).toBeUndefined();
    expect(dirs.mountsFor('fs')).toBeUndefined();
    expect(logged).toEqual([expect.stringMatching(/direct channel is off \(\/tmp lies inside the workspace \/tmp.*reads go through the kernel/)]);
    expect(dirs.socketFor('fs')).toBeUndefined();
    expect(logged).toHaveLength(1);
  });
});

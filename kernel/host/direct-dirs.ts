/**
 * Where sandbox backends put their direct-channel sockets (docs/protocol.md, "Direct channel"):
 * one private directory per kernel host, with one subdirectory per plugin. A confined plugin
 * sees the whole directory read-only (it can connect to any socket there, and a socket answers
 * only requests that carry a grant) and its own subdirectory read-write, so no confined plugin
 * can replace another's socket with its own.
 *
 * The directory goes in the system temp directory, or /tmp when that one will not do, and
 * nowhere else; with neither, the channel is off and every request goes through the kernel:
 * - a socket path holds at most 107 bytes, and a longer one is cut short silently (by libuv),
 *   so a long TMPDIR would put the socket at a name someone else may already hold;
 * - inside a workspace, an agent's commands could move a socket aside and listen in its place;
 * - in a directory others may write without the sticky bit, they could rename ours away.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIRECT_SOCKET_PATH_MAX_BYTES as MAX_SOCKET_PATH_BYTES } from '../../protocol/index.js';
const SOCKET_NAME = 'direct.sock';
/** A slot name is at most this long (`<n>`), so the check on the root covers every socket. */
const SLOT_NAME_BYTES = 6;

const within = (child: string, root: string) => child === root || child.startsWith(root.endsWith('/') ? root : `${root}/`);

/** Why `base` cannot hold the directory, or undefined when it can. */
function unsuitable(base: string, workspaceRoots: readonly string[]): string | undefined {
  let real: string;
  try {
    real = realpathSync(base);
  } catch {
    return `${base} does not exist`;
  }
  // "/pincer-direct-XXXXXX" + "/<n>/direct.sock"
  const longest = Buffer.byteLength(real) + '/pincer-direct-XXXXXX'.length + 1 + SLOT_NAME_BYTES + 1 + SOCKET_NAME.length;
  if (longest > MAX_SOCKET_PATH_BYTES) return `a socket path under ${real} would be longer than ${MAX_SOCKET_PATH_BYTES} bytes`;
  for (const root of workspaceRoots) {
    let workspace = root;
    try {
      workspace = realpathSync(root);
    } catch {
      // a workspace not made yet: compare by name
    }
    if (within(real, workspace)) return `${real} lies inside the workspace ${root}, where agents' commands write`;
  }
  const { mode } = statSync(real);
  if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0) return `${real} is writable by others and not sticky`;
  return undefined;
}

export class DirectChannelDirs {
  #root: string | undefined;
  /** Why there is no directory (decided once). */
  #off: string | undefined;
  readonly #slots = new Map<string, string>();
  readonly #workspaceRoots: readonly string[];
  readonly #log: (message: string) => void;

  constructor(workspaceRoots: readonly string[], log: (message: string) => void) {
    this.#workspaceRoots = workspaceRoots;
    this.#log = log;
  }

  /** The directory (made, mode 0700, on first use), or undefined when the channel is off here. */
  get root(): string | undefined {
    if (this.#root !== undefined || this.#off !== undefined) return this.#root;
    const reasons: string[] = [];
    for (const base of [...new Set([os.tmpdir(), '/tmp'])]) {
      const why = unsuitable(base, this.#workspaceRoots);
      if (why === undefined) return (this.#root = mkdtempSync(path.join(realpathSync(base), 'pincer-direct-')));
      reasons.push(why);
    }
    this.#off = reasons.join('; ');
    this.#log(`the direct channel is off (${this.#off}): tool plugins' reads go through the kernel`);
    return undefined;
  }

  /** The plugin's own subdirectory, made on first use and stable across its restarts (undefined when the channel is off). */
  slotFor(pluginId: string): string | undefined {
    const root = this.root;
    if (root === undefined) return undefined;
    let slot = this.#slots.get(pluginId);
    if (slot === undefined) {
      slot = path.join(root, String(this.#slots.size));
      mkdirSync(slot, { recursive: true, mode: 0o700 });
      this.#slots.set(pluginId, slot);
    }
    return slot;
  }

  /** What a confined plugin gets mounted: the directory read-only, its own subdirectory read-write. */
  mountsFor(pluginId: string): { root: string; own: string } | undefined {
    const own = this.slotFor(pluginId);
    return own === undefined ? undefined : { root: this.#root!, own };
  }

  /** Where a backend plugin listens (undefined when the channel is off). */
  socketFor(pluginId: string): string | undefined {
    const slot = this.slotFor(pluginId);
    return slot === undefined ? undefined : path.join(slot, SOCKET_NAME);
  }

  /** Removes the directory (the host calls it when it stops). */
  dispose(): void {
    if (this.#root) rmSync(this.#root, { recursive: true, force: true });
    this.#root = undefined;
    this.#slots.clear();
  }
}

/**
 * Where sandbox backends put their direct-channel sockets (docs/protocol.md, "Direct channel"):
 * one private directory per kernel host, under the system temp directory (a Unix socket path
 * holds at most 107 bytes, and a state directory can be longer), with one subdirectory per
 * plugin. A confined plugin sees the whole directory read-only (it can connect to any socket
 * there, and a socket answers only requests that carry a grant) and its own subdirectory
 * read-write, so no plugin can replace another's socket with its own.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DirectChannelDirs {
  #root: string | undefined;
  readonly #slots = new Map<string, string>();

  /** The directory, made (mode 0700) on first use. */
  get root(): string {
    this.#root ??= mkdtempSync(path.join(os.tmpdir(), 'pincer-direct-'));
    return this.#root;
  }

  /** The plugin's own subdirectory, made on first use; stable across its restarts. */
  slotFor(pluginId: string): string {
    let slot = this.#slots.get(pluginId);
    if (slot === undefined) {
      slot = path.join(this.root, String(this.#slots.size));
      mkdirSync(slot, { recursive: true, mode: 0o700 });
      this.#slots.set(pluginId, slot);
    }
    return slot;
  }

  /** Where a backend plugin listens. */
  socketFor(pluginId: string): string {
    return path.join(this.slotFor(pluginId), 'direct.sock');
  }

  /** Removes the directory (the host calls it when it stops). */
  dispose(): void {
    if (this.#root) rmSync(this.#root, { recursive: true, force: true });
    this.#root = undefined;
    this.#slots.clear();
  }
}

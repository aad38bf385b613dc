import fs from 'node:fs/promises';
import type { HeldDirectory } from './held-directory.js';

/**
 * Remove directory `name` of a held directory and everything below it without ever
 * following a symlink: each subdirectory is opened without following (a directory swapped
 * for a symlink mid-way is refused, not descended into), entries are unlinked through the
 * held fd, and a symlink inside is removed as a link.
 */
export async function removeTreeAt(parent: HeldDirectory, name: string): Promise<void> {
  const dir = parent.child(name, false);
  try {
    for (const entry of await fs.readdir(dir.self, { withFileTypes: true })) {
      if (entry.isDirectory()) await removeTreeAt(dir, entry.name);
      else await fs.unlink(dir.at(entry.name));
    }
  } finally {
    dir.close();
  }
  await fs.rmdir(parent.at(name));
}

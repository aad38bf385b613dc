/**
 * Scanner results cached by file identity (device, inode, size, mtime, ctime): an unchanged
 * file is never read or scanned twice; any write changes at least one of them. Bounded, oldest
 * entries first out.
 */
import type { Stats } from 'node:fs';
import type { SkillFinding } from './findings.js';

export class ScanCache {
  readonly #entries = new Map<string, SkillFinding[]>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity = 20_000) {}

  static keyOf(path: string, stat: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>): string {
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${path}`;
  }

  get(key: string): SkillFinding[] | undefined {
    const found = this.#entries.get(key);
    if (found) this.hits += 1;
    else this.misses += 1;
    return found;
  }

  set(key: string, findings: SkillFinding[]): void {
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, findings);
  }

  get size(): number {
    return this.#entries.size;
  }
}

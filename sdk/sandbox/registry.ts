import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the kernel remembers about a sandbox beyond what the backend itself labels. */
export interface SandboxRegistryEntry {
  name: string;
  backendId: string;
  scopeKey: string;
  createdAtMs: number;
  lastUsedAtMs: number;
  configHash?: string;
  image?: string;
}

export interface SandboxRegistry {
  get(name: string): SandboxRegistryEntry | undefined;
  set(entry: SandboxRegistryEntry): void;
  delete(name: string): void;
  list(): SandboxRegistryEntry[];
}

/** In-memory registry (tests, one-shot runs). */
export class MemorySandboxRegistry implements SandboxRegistry {
  protected readonly entries = new Map<string, SandboxRegistryEntry>();
  get(name: string) { return this.entries.get(name); }
  set(entry: SandboxRegistryEntry) { this.entries.set(entry.name, entry); }
  delete(name: string) { this.entries.delete(name); }
  list() { return [...this.entries.values()]; }
}

/**
 * Registry persisted as JSON (`~/.pincer/sandbox/containers.json`), so "last used" survives
 * restarts and prune can judge idleness. Written via temp file + rename; a corrupt file is
 * treated as empty rather than blocking sandbox use.
 */
export class JsonFileSandboxRegistry extends MemorySandboxRegistry {
  constructor(private readonly file: string) {
    super();
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as { entries?: SandboxRegistryEntry[] };
      for (const e of data.entries ?? []) this.entries.set(e.name, e);
    } catch {
      // missing or unreadable: start empty
    }
  }
  override set(entry: SandboxRegistryEntry) { super.set(entry); this.flush(); }
  override delete(name: string) { super.delete(name); this.flush(); }
  private flush() {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ entries: this.list() }, null, 2));
    renameSync(tmp, this.file);
  }
}

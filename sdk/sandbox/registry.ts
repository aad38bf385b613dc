import * as z from 'zod';
import { readRegistryFile, writeRegistryFile } from './registry-file.js';

/** What the kernel remembers about a sandbox beyond what the backend itself labels. */
export const SandboxRegistryEntrySchema = z.object({
  name: z.string().min(1),
  backendId: z.string(),
  scopeKey: z.string(),
  createdAtMs: z.number(),
  lastUsedAtMs: z.number(),
  configHash: z.string().optional(),
  image: z.string().optional(),
});
export type SandboxRegistryEntry = z.infer<typeof SandboxRegistryEntrySchema>;

export interface SandboxRegistry {
  get(name: string): SandboxRegistryEntry | undefined;
  set(entry: SandboxRegistryEntry): void;
  delete(name: string): void;
  list(): SandboxRegistryEntry[];
  /** Records a use of a known sandbox now; unknown names are ignored. */
  touch(name: string, atMs: number): void;
}

/** In-memory registry (tests, one-shot runs). */
export class MemorySandboxRegistry implements SandboxRegistry {
  protected readonly entries = new Map<string, SandboxRegistryEntry>();
  get(name: string) { return this.entries.get(name); }
  set(entry: SandboxRegistryEntry) { this.entries.set(entry.name, entry); }
  delete(name: string) { this.entries.delete(name); }
  list() { return [...this.entries.values()]; }
  touch(name: string, atMs: number) {
    const entry = this.get(name);
    if (entry && atMs > entry.lastUsedAtMs) this.set({ ...entry, lastUsedAtMs: atMs });
  }
}

/**
 * Registry persisted as JSON, so "last used" survives restarts and is shared by every process
 * of a deployment (`serve`, the CLI's `prune`). Each change re-reads the file and applies only
 * itself, so two processes do not erase each other's entries; the file is owner-only (it holds
 * session keys) and replaced atomically (see registry-file.ts). A corrupt file is an error
 * naming the file, never silently read as empty and overwritten.
 */
export class JsonFileSandboxRegistry extends MemorySandboxRegistry {
  constructor(private readonly file: string) {
    super();
    this.reload();
  }

  private reload(): void {
    this.entries.clear();
    for (const e of readRegistryFile(this.file, SandboxRegistryEntrySchema)) this.entries.set(e.name, e);
  }

  override set(entry: SandboxRegistryEntry) {
    this.reload();
    super.set(entry);
    writeRegistryFile(this.file, this.list());
  }

  /** Only the last use changes: what another process recorded about the entry is kept. */
  override touch(name: string, atMs: number) {
    this.reload();
    const entry = this.entries.get(name);
    if (!entry || atMs <= entry.lastUsedAtMs) return;
    super.set({ ...entry, lastUsedAtMs: atMs });
    writeRegistryFile(this.file, this.list());
  }

  override delete(name: string) {
    this.reload();
    if (!this.entries.has(name)) return;
    super.delete(name);
    writeRegistryFile(this.file, this.list());
  }
}

/**
 * The kernel's audit trail: every decision (policy removals, blocks, refusals, approvals and
 * their answers, sandbox refusals, confinement denials, plugin state changes) as one JSON line.
 *
 * Records that denied something are written at once and flushed to disk before the denied
 * call settles (the gate, host and router await `record`'s promise). Everything else is queued
 * and written on a later turn of the event loop: assembly only notes its removal list, and a
 * run shape already seen queues nothing. A trail that cannot write says so (once per problem)
 * and never changes a call's outcome.
 */
import type { DiagnosticsEmitter } from '../diagnostics/index.js';
import type { HostDecisionSink } from '../host/index.js';
import type { PolicyRemoval } from '../policy/index.js';
import type { WorkspaceFailureSink } from '../workspace/router.js';
import { AuditFile } from './file.js';
import { sanitizeRecord, type AuditEntry, type AuditRecord } from './record.js';
import { RemovalLedger } from './removals.js';
import { AUDITED_EVENTS, fromConfinementDenial, fromDiagnostics, fromStateChange, fromWorkspaceFailure } from './sources.js';

/** What a host sees of the trail (`kernel.audit`). */
export interface AuditTrailView {
  /** The file being appended to; undefined when the config turns the trail off. */
  readonly file: string | undefined;
  /** Records decided but not written yet. */
  readonly pending: number;
  /** Writes what is pending and resolves once it is on disk. */
  flush(): Promise<void>;
}

export interface AuditTrailOptions {
  /** The trail's directory; undefined: off. */
  dir: string | undefined;
  name: string;
  maxFileBytes: number;
  keepFiles: number;
  warn: (message: string) => void;
}

/** Trails with records queued: what is still queued when the process exits is written then, synchronously. */
const open = new Set<AuditTrail>();
let exitHooked = false;

export class AuditTrail implements AuditTrailView {
  readonly file: string | undefined;
  readonly #file: AuditFile | undefined;
  readonly #removals = new RemovalLedger();
  #queue: AuditRecord[] = [];
  #scheduled: NodeJS.Immediate | undefined;
  #durable: Promise<void> | undefined;
  #closed = false;
  readonly #warned = new Set<string>();

  constructor(private readonly options: AuditTrailOptions) {
    this.#file = options.dir === undefined ? undefined : new AuditFile({ dir: options.dir, name: options.name, maxFileBytes: options.maxFileBytes, keepFiles: options.keepFiles });
    this.file = this.#file?.path;
  }

  get pending(): number {
    return this.#queue.length + this.#removals.pending;
  }

  /** Records one decision. A denial is durable when the returned promise resolves (it never rejects). */
  record(entry: AuditEntry): Promise<void> | undefined {
    if (!this.#file || this.#closed) return undefined;
    this.#queue.push({ at: new Date().toISOString(), ...entry });
    if (!entry.denied) return void this.#schedule();
    this.#write();
    const flushed = this.#file.flush().catch((error: unknown) => this.#warn('flush', error));
    const durable: Promise<void> = flushed.then(() => {
      if (this.#durable === durable) this.#durable = undefined;
    });
    this.#durable = durable;
    return durable;
  }

  /** Assembly's hook: O(1) for a run shape already seen. */
  noteRemovals(removals: readonly PolicyRemoval[], run: { agentId: string; sessionKey?: string; runId?: string }): void {
    if (this.#file && !this.#closed && this.#removals.note(removals, run)) this.#schedule();
  }

  /** The gate's barrier: pending while a denial is still on its way to disk. */
  readonly denialsRecorded = (): Promise<void> | undefined => this.#durable;

  /** Subscribes to the gate's decisions; returns the unsubscribe. */
  watch(diagnostics: DiagnosticsEmitter): () => void {
    if (!this.#file) return () => undefined;
    const listener = (event: Parameters<typeof fromDiagnostics>[0]) => {
      const entry = fromDiagnostics(event);
      if (entry) this.record(entry);
    };
    const offs = AUDITED_EVENTS.map((type) => diagnostics.on(type, listener));
    return () => offs.forEach((off) => off());
  }

  readonly host: HostDecisionSink = {
    stateChanged: (change) => void this.record(fromStateChange(change)),
    confinementDenied: (denial) => this.record(fromConfinementDenial(denial, denial.session === undefined ? undefined : this.sessionKeyOf?.(denial.session))),
  };

  /** Maps a call's session handle to its session key (the kernel sets it to the router's). */
  sessionKeyOf: ((handle: string) => string | undefined) | undefined;

  readonly workspace: WorkspaceFailureSink = (failure) => {
    const entry = fromWorkspaceFailure(failure);
    return entry ? this.record(entry) : undefined;
  };

  async flush(): Promise<void> {
    this.#write();
    await this.#file?.flush().catch((error: unknown) => this.#warn('flush', error));
  }

  /** Writes and flushes what is pending; later records are dropped (the kernel has stopped). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.flush();
    await this.#file?.close().catch((error: unknown) => this.#warn('close', error));
  }

  #schedule(): void {
    this.#scheduled ??= setImmediate(() => this.#write()).unref();
    // Only trails with something queued are held here, so a kernel never stopped is not kept alive.
    open.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', () => {
        for (const trail of open) trail.#write();
      });
    }
  }

  /** Writes the queue, with the removals noted since the last write in time order among it. */
  #write(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    open.delete(this);
    const removals = this.#removals.drain();
    const records = removals.length ? [...removals, ...this.#queue].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)) : this.#queue;
    this.#queue = [];
    if (records.length === 0 || !this.#file) return;
    try {
      this.#file.write(records.map((record) => `${JSON.stringify(sanitizeRecord(record))}\n`).join(''));
    } catch (error) {
      this.#warn('write', error);
    }
  }

  #warn(what: string, error: unknown): void {
    const message = `audit trail: ${what} to ${this.file} failed (${(error as Error).message ?? String(error)}); records are being lost`;
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.options.warn(message);
  }
}

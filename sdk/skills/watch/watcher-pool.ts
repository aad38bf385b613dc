/**
 * File watchers shared by directory: every source, agent and workspace that uses one skills
 * root shares one chokidar watcher, so watch handles grow with directories, not with agents.
 * Events are coalesced: a listener runs once the tree has been quiet for the debounce (250 ms),
 * and chokidar reports a file only once its size and mtime have been stable as long. A root
 * that does not exist yet is watched through its nearest existing ancestor, so its creation is
 * noticed. When the OS runs out of watch handles (ENOSPC, EMFILE, ENFILE) or the pool reaches
 * its cap, new roots get no watcher, and a watcher whose tree passes the directory budget is
 * dropped: their sources fall back to rescanning on every list, and the pool says so once.
 */
import { watch as chokidarWatch } from 'chokidar';
import { existsSync, type Stats } from 'node:fs';
import { dirname, relative, sep } from 'node:path';

export const SKILLS_WATCH_DEBOUNCE_MS = 250;
const WATCH_DEPTH = 8;
/**
 * Directories watched by one pool at most. Each costs an OS watch handle shared by every
 * program of the user: an agent that fills its skills/ with directories must not exhaust them.
 */
export const MAX_WATCHED_DIRECTORIES = 4096;
const CAPACITY_ERRORS = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

/** The part of a chokidar watcher the pool uses. */
export interface NativeWatcher {
  on(event: 'all', listener: (event: string, path: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  close(): Promise<void>;
}

export type WatchFactory = (path: string, options: { depth: number; ignored: (path: string, stats?: Stats) => boolean; stabilityMs: number }) => NativeWatcher;

/** The default factory: chokidar, events once size and mtime are stable. */
export const chokidarWatchFactory: WatchFactory = (path, options) =>
  chokidarWatch(path, {
    ignoreInitial: true,
    depth: options.depth,
    ignored: options.ignored,
    awaitWriteFinish: options.stabilityMs > 0 ? { stabilityThreshold: options.stabilityMs, pollInterval: Math.min(100, options.stabilityMs) } : false,
  }) as unknown as NativeWatcher;

export interface WatcherPoolOptions {
  debounceMs?: number;
  /** Native watchers at most (each holds many OS handles). */
  maxWatchers?: number;
  /** Directories watched at most, over all watchers; a watcher that would pass it is dropped (its lists rescan). */
  maxWatchedDirectories?: number;
  factory?: WatchFactory;
  /** Told once, the first time a root cannot be watched. */
  onFallback?: (why: string) => void;
}

/** What a subscriber hears: a change, or that its watcher was lost (list it by rescanning). */
export type WatchSignal = 'changed' | 'lost';

interface Entry {
  watcher: NativeWatcher;
  listeners: Set<(signal: WatchSignal) => void>;
  timer?: NodeJS.Timeout;
  /** Settles once the watcher sees changes (chokidar's initial scan is done). */
  ready: Promise<void>;
  /** Settles `ready` early: a dropped watcher must not keep a scan waiting. */
  markReady: () => void;
  /** Directories it watches (counted against the pool's budget). */
  directories: Set<string>;
  /** Closed: it counts no more directories. */
  closed?: boolean;
}

export interface WatchLease {
  /** Settles once changes are seen: scan after it, and nothing written meanwhile is missed. */
  readonly ready: Promise<void>;
  release(): void;
}

/** Skipped below a root: hidden directories and node_modules (never scanned, so never watched). */
function ignoredBelow(root: string): (path: string) => boolean {
  return (path) => {
    const rel = relative(root, path);
    if (rel === '' || rel.startsWith('..')) return false;
    return rel.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
  };
}

/** For a missing root: only the path component leading toward the root matters. */
function towardRoot(ancestor: string, root: string): (path: string) => boolean {
  const next = relative(ancestor, root).split(sep)[0];
  return (path) => path !== ancestor && relative(ancestor, path).split(sep)[0] !== next;
}

export class WatcherPool {
  readonly #entries = new Map<string, Entry>();
  readonly #debounceMs: number;
  #maxWatchers: number;
  readonly #maxDirectories: number;
  #directories = 0;
  readonly #factory: WatchFactory;
  readonly #onFallback?: (why: string) => void;
  /** Set once the OS refused a watch handle: from then on no new root is watched. */
  #outOfHandles: string | undefined;
  #told = false;

  constructor(options: WatcherPoolOptions = {}) {
    this.#debounceMs = options.debounceMs ?? SKILLS_WATCH_DEBOUNCE_MS;
    this.#maxWatchers = options.maxWatchers ?? 64;
    this.#maxDirectories = options.maxWatchedDirectories ?? MAX_WATCHED_DIRECTORIES;
    this.#factory = options.factory ?? chokidarWatchFactory;
    this.#onFallback = options.onFallback;
  }

  /** Caps native watchers from now on (watchers already open stay). */
  setMaxWatchers(max: number): void {
    this.#maxWatchers = max;
  }

  /** Native watchers open now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Why a new root would not be watched now, if it would not. */
  get exhausted(): string | undefined {
    return this.#outOfHandles ?? (this.#entries.size >= this.#maxWatchers ? this.#capReason() : undefined);
  }

  #capReason(): string {
    return `the skills watcher cap (${this.#maxWatchers} directories) is reached`;
  }

  /** Watches `root` for `listener`; null when it cannot be watched (the caller rescans instead). */
  subscribe(root: string, listener: (signal: WatchSignal) => void): WatchLease | null {
    let target = root;
    while (!existsSync(target) && dirname(target) !== target) target = dirname(target);
    const key = target === root ? root : `${target}\u0000${root}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      const refusal = this.exhausted;
      if (refusal) {
        this.#tell(refusal);
        return null;
      }
      try {
        entry = this.#open(key, target, target === root ? { depth: WATCH_DEPTH, ignored: ignoredBelow(root) } : { depth: 0, ignored: towardRoot(target, root) });
      } catch (error) {
        if (this.#isCapacity(error)) return null;
        throw error;
      }
    }
    const own = entry;
    own.listeners.add(listener);
    return { ready: own.ready, release: () => this.#release(key, own, listener) };
  }

  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    this.#directories = 0;
    await Promise.all(entries.map((entry) => (clearTimeout(entry.timer), entry.watcher.close().catch(() => undefined))));
  }

  #open(key: string, path: string, options: { depth: number; ignored: (path: string) => boolean }): Entry {
    let markReady = (): void => undefined;
    let entry: Entry | undefined;
    const directories = new Set<string>();
    const ignored = (p: string, stats?: Stats): boolean => {
      if (options.ignored(p) || entry?.closed) return true;
      if (!stats?.isDirectory() || directories.has(p)) return false;
      if (this.#directories >= this.#maxDirectories) {
        // Past the budget: this watcher would miss changes, so it is dropped and its lists rescan.
        queueMicrotask(() => this.#drop(key, entry!, `the skills watchers reached their budget of ${this.#maxDirectories} directories (at ${path})`));
        return true;
      }
      directories.add(p);
      this.#directories += 1;
      return false;
    };
    const watcher = this.#factory(path, { ...options, ignored, stabilityMs: this.#debounceMs });
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const own: Entry = (entry = { watcher, listeners: new Set(), ready, markReady: () => markReady(), directories });
    watcher.on('ready', () => markReady());
    this.#entries.set(key, own);
    watcher.on('all', () => {
      clearTimeout(own.timer);
      own.timer = setTimeout(() => own.listeners.forEach((listener) => listener('changed')), this.#debounceMs);
      own.timer.unref?.();
    });
    watcher.on('error', (error) => {
      // Out of handles, this watcher is incomplete now: drop it and let its subscribers rescan from here on.
      if (this.#isCapacity(error)) this.#drop(key, own);
    });
    return own;
  }

  /** Stops a watcher that can no longer see every change; its subscribers rescan on every list. */
  #drop(key: string, entry: Entry, why?: string): void {
    if (this.#entries.get(key) !== entry) return;
    if (why) this.#tell(why);
    entry.markReady();
    this.#forget(key, entry);
    entry.listeners.forEach((listener) => listener('lost'));
  }

  #forget(key: string, entry: Entry): void {
    entry.closed = true;
    this.#entries.delete(key);
    this.#directories -= entry.directories.size;
    entry.directories.clear();
    clearTimeout(entry.timer);
    void entry.watcher.close().catch(() => undefined);
  }

  #isCapacity(error: unknown): boolean {
    const code = (error as { code?: unknown })?.code;
    if (typeof code !== 'string' || !CAPACITY_ERRORS.has(code)) return false;
    this.#outOfHandles ??= `the system ran out of file watch handles (${code})`;
    this.#tell(this.#outOfHandles);
    return true;
  }

  #tell(why: string): void {
    if (this.#told) return;
    this.#told = true;
    this.#onFallback?.(why);
  }

  #release(key: string, entry: Entry, listener: (signal: WatchSignal) => void): void {
    entry.listeners.delete(listener);
    if (entry.listeners.size > 0 || this.#entries.get(key) !== entry) return;
    this.#forget(key, entry);
  }
}

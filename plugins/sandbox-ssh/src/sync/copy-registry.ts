import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join, posix } from 'node:path';
import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import { leaseConnection, type ConnectionLease } from '../connection-pool.js';
import { COPY_STATES_FOLDER, sshPluginDataDir } from '../data-dir.js';
import type { ResolvedSshSettings } from '../settings.js';
import { CopyStateStore, type CopyState } from './copy-state.js';
import { excludeFilter } from './excludes.js';
import { RemoteCopy } from './remote-copy.js';
import { ENSURE_COPY, REFUSED_EXIT } from './remote-scripts.js';
import { runStep } from './remote-step.js';

/** `rw`: a writable copy (changes may come back); `ro`: a read-only one (`ro` and `none` sessions). */
export type CopyAccess = 'rw' | 'ro';

export interface CopyRequest {
  settings: ResolvedSshSettings;
  hostDir: string;
  access: CopyAccess;
  /** Recorded in the copy's remote `meta` (who created it), never part of its identity. */
  agentId: string;
  /** Default: the plugin's data directory. */
  dataDir?: string;
  /** Upload files with more than one hard link (the plugin's `allowHardLinks`); held back otherwise. */
  allowHardLinks?: boolean;
}

/** Paths inside a writable copy that only the host may change: the skill directories. */
const HOST_OWNED = ['skills', '.agents/skills', '.pincer/sandbox-skills/skills'];

interface Entry {
  opening: Promise<RemoteCopy>;
  users: number;
}

const copies = new Map<string, Entry>();
const closing = new Map<string, Promise<void>>();

/** What a copy is a copy of: who holds it where, of which host directory, how writable, with which excludes. */
function copyKey(s: ResolvedSshSettings, hostDir: string, access: CopyAccess, allowHardLinks: boolean): string {
  // Hard links only when allowed, so the copies made before the setting existed keep their key.
  const what = [s.user, s.host, s.port, s.remoteRoot ?? '', hostDir, access, s.sync.exclude, s.sync.git, s.sync.gitignore, ...(allowHardLinks ? ['hard-links'] : [])];
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 24);
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 24) || 'workspace';

/** Opens the remote copy the state names, or creates a new one under a random name. */
async function ensureRemote(lease: ConnectionLease, s: ResolvedSshSettings, req: CopyRequest, hostDir: string, state: CopyState | undefined): Promise<{ state: CopyState; reused: boolean }> {
  const run = async (mode: 'open' | 'create', name: string, id: string) => {
    const meta = JSON.stringify({ createdAtMs: Date.now(), host: hostname(), hostDir, access: req.access, agent: req.agentId });
    const r = await runStep(lease.connection, 'opening the remote copy', ENSURE_COPY, [s.remoteRoot ?? '', mode, name, id, meta]);
    const said = r.stderr.toString('utf8').trim();
    if (r.code === REFUSED_EXIT) {
      throw new SandboxError('SECURITY_VIOLATION', `Refusing to keep workspace copies on ${lease.connection.label}: ${said}. Give sandbox.ssh.remoteRoot a directory that belongs to the ssh user.`, { data: { summary: `The sandbox host's copies directory was refused: ${said}.` } });
    }
    if (r.code !== 0) throw new SandboxError('SYNC_FAILED', `Cannot open the workspace copy on ${lease.connection.label} (exit ${r.code}): ${said}`);
    const [outcome, root] = r.stdout.toString('utf8').split('\n');
    return { outcome, root: root! };
  };
  if (state) {
    const { outcome } = await run('open', state.name, state.id);
    if (outcome === 'open') return { state, reused: true };
  }
  const id = randomBytes(8).toString('hex');
  const name = `${slug(basename(hostDir))}-${req.access}-${id}`;
  const { root } = await run('create', name, id);
  return { state: { id, name, root, entries: new Map(), pending: new Set(), conflicts: new Map(), complete: false }, reused: false };
}

async function openCopy(req: CopyRequest, key: string, hostDir: string): Promise<RemoteCopy> {
  const s = req.settings;
  const store = new CopyStateStore(join(req.dataDir ?? sshPluginDataDir(), COPY_STATES_FOLDER));
  const claim = store.claim(key);
  const lease = leaseConnection(s);
  try {
    const { state, reused } = await ensureRemote(lease, s, req, hostDir, claim.state);
    const copyDir = posix.join(state.root, state.name);
    store.save(claim.file, state);
    return new RemoteCopy({
      connection: lease.connection,
      hostDir,
      copyDir,
      treeDir: posix.join(copyDir, 'tree'),
      state,
      settings: s.sync,
      readOnly: req.access === 'ro',
      hostOwns: (p) => req.access === 'rw' && HOST_OWNED.some((o) => p === o || p.startsWith(`${o}/`)),
      filter: () => excludeFilter(s.sync, hostDir),
      allowHardLinks: req.allowHardLinks === true,
      hardLinked: new Set(),
      save: () => store.save(claim.file, state),
    }, lease, claim.unlock, reused);
  } catch (error) {
    claim.unlock();
    lease.release();
    throw error;
  }
}

export interface CopyHandle {
  copy: RemoteCopy;
  /** The last user's release stops a running sync and lets go of the copy. */
  release(): Promise<void>;
}

/** The copy for a request, shared with every other user of the same copy in this process. */
export async function acquireCopy(req: CopyRequest): Promise<CopyHandle> {
  let hostDir: string;
  try {
    hostDir = realpathSync(req.hostDir);
  } catch (cause) {
    throw new SandboxError('CONFIG_INVALID', `The workspace directory ${req.hostDir} cannot be opened on the host`, { cause });
  }
  excludeFilter(req.settings.sync, hostDir); // a bad sync setting (gitignore outside a git work tree) fails here, clearly
  const key = copyKey(req.settings, hostDir, req.access, req.allowHardLinks === true);
  while (closing.has(key)) await closing.get(key);
  let entry = copies.get(key);
  if (!entry) {
    const opening = openCopy(req, key, hostDir);
    const created: Entry = { opening, users: 0 };
    copies.set(key, (entry = created));
    opening.catch(() => { if (copies.get(key) === created) copies.delete(key); });
  }
  // Counted before waiting: a release meanwhile must not dispose a copy about to be used.
  const held = entry;
  held.users++;
  let copy: RemoteCopy;
  try {
    copy = await held.opening;
  } catch (error) {
    held.users--;
    throw error;
  }
  let released = false;
  return {
    copy,
    async release() {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      if (copies.get(key) === held) copies.delete(key);
      const done = copy.dispose().finally(() => closing.delete(key));
      closing.set(key, done);
      await done;
    },
  };
}

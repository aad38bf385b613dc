import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { leaseConnection } from './connection-pool.js';
import { COPY_STATES_FOLDER } from './data-dir.js';
import { SshSettingsSchema, type SshSettings } from './settings.js';
import { isLocked, listStoredStates } from './sync/copy-state.js';
import { LIST_COPIES, REMOVE_COPY } from './sync/remote-scripts.js';
import { runStep, stepFailure } from './sync/remote-step.js';

export interface PruneRule {
  /** Remove copies unused for longer than this (0 disables). */
  idleHours: number;
  /** Remove copies created longer ago than this (0 disables). */
  maxAgeDays: number;
}

export interface RemoteCopyInfo {
  root: string;
  name: string;
  hostDir?: string;
  access?: string;
  createdAtMs?: number;
  lastUsedAtMs: number;
  /** A live plugin process sharing `dataDir` holds it. */
  inUse: boolean;
}

interface Listed {
  uid: string;
  root: string;
  copies: Array<{ name: string; owner: string; mtimeS: number; meta: string }>;
}

function parseListing(out: Buffer): Listed {
  const text = out.toString('utf8');
  const newline = text.indexOf('\n');
  const [uid, ...rootParts] = text.slice(0, newline).split(' ');
  const fields = text.slice(newline + 1).split('\0');
  const copies: Listed['copies'] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [owner, mtime] = fields[i + 1]!.split(':');
    copies.push({ name: fields[i]!, owner: owner!, mtimeS: Number(mtime), meta: fields[i + 2]! });
  }
  return { uid: uid!, root: rootParts.join(' '), copies };
}

/**
 * The workspace copies under the configured root: only directories of the ssh user whose
 * `meta` starts with a copy id (anything else in the root is not ours to judge). "In use"
 * means locked by a live plugin process on this host with the same data directory.
 */
export async function listRemoteCopies(settingsInput: SshSettings, dataDir: string): Promise<RemoteCopyInfo[]> {
  const settings = SshSettingsSchema.parse({ ...settingsInput, connectAttempts: 1 });
  const lease = leaseConnection(settings);
  try {
    const result = await runStep(lease.connection, 'listing remote copies', LIST_COPIES, [settings.remoteRoot ?? '']);
    const failure = stepFailure('listing remote copies', result);
    if (failure) throw failure;
    const listed = parseListing(result.stdout);
    const states = listStoredStates(join(dataDir, COPY_STATES_FOLDER));
    return listed.copies.flatMap((c) => {
      const [id, json] = c.meta.split('\n');
      if (c.owner !== listed.uid || !/^[0-9a-f]{16}$/.test(id ?? '') || !c.name.endsWith(`-${id}`)) return [];
      let meta: { createdAtMs?: number; hostDir?: string; access?: string } = {};
      try { meta = JSON.parse(json ?? '{}'); } catch { /* a damaged meta: judged by its times alone */ }
      const state = states.find((s) => s.name === c.name && s.root === listed.root);
      return [{ root: listed.root, name: c.name, hostDir: meta.hostDir, access: meta.access, createdAtMs: meta.createdAtMs, lastUsedAtMs: c.mtimeS * 1000, inUse: state !== undefined && isLocked(state.lockFile) }];
    });
  } finally {
    lease.release();
  }
}

/**
 * `pincer sandbox prune` for ssh: removes copies no session uses that are idle (their `meta`
 * is touched at every session start and every upload) or old past the rule, and their sync
 * state on this host. Returns what was removed.
 */
export async function pruneRemoteCopies(settingsInput: SshSettings, rule: PruneRule, dataDir: string, now = Date.now()): Promise<RemoteCopyInfo[]> {
  const copies = await listRemoteCopies(settingsInput, dataDir);
  const idleMs = rule.idleHours * 3_600_000;
  const maxAgeMs = rule.maxAgeDays * 86_400_000;
  const doomed = copies.filter((c) => !c.inUse && ((idleMs > 0 && now - c.lastUsedAtMs > idleMs) || (maxAgeMs > 0 && c.createdAtMs !== undefined && now - c.createdAtMs > maxAgeMs)));
  if (doomed.length === 0) return [];
  const settings = SshSettingsSchema.parse({ ...settingsInput, connectAttempts: 1 });
  const lease = leaseConnection(settings);
  const states = listStoredStates(join(dataDir, COPY_STATES_FOLDER));
  const removed: RemoteCopyInfo[] = [];
  try {
    for (const copy of doomed) {
      const result = await runStep(lease.connection, `removing ${copy.name}`, REMOVE_COPY, [copy.root, copy.name]);
      if (result.code !== 0) continue;
      for (const s of states.filter((x) => x.name === copy.name && x.root === copy.root)) rmSync(s.file, { force: true });
      removed.push(copy);
    }
  } finally {
    lease.release();
  }
  return removed;
}

/**
 * Prune for a config: each distinct ssh target among `settingsList` (the plugin's settings,
 * then each agent's overrides merged over them) once. Returns the removed copies as
 * `user@host:<root>/<name>`.
 */
export async function pruneRemoteCopiesOf(settingsList: readonly SshSettings[], rule: PruneRule, dataDir: string): Promise<string[]> {
  const targets = new Map<string, SshSettings>();
  for (const s of settingsList) targets.set(JSON.stringify([s.user, s.host, s.port, s.remoteRoot]), s);
  const removed: string[] = [];
  for (const s of targets.values()) {
    for (const copy of await pruneRemoteCopies(s, rule, dataDir)) removed.push(`${s.user}@${s.host}:${copy.root}/${copy.name}`);
  }
  return removed;
}

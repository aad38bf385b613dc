import { SshConnection } from './connection.js';
import type { ResolvedSshSettings } from './settings.js';

interface Pooled {
  connection: SshConnection;
  users: number;
}

const pool = new Map<string, Pooled>();

/** Everything that decides who we connect to, as whom and whom we trust: equal keys may share. */
function identityOf(s: ResolvedSshSettings): string {
  return JSON.stringify([s.user, s.host, s.port, s.privateKeyPath, s.agent, s.passphrase, s.knownHostsPaths, s.hostKey, s.maxChannels,
    s.keepaliveIntervalMs, s.keepaliveCountMax, s.readyTimeoutMs, s.connectAttempts]);
}

export interface ConnectionLease {
  connection: SshConnection;
  /** Gives the connection back; the last user closes it. */
  release(): void;
}

/**
 * One connection per remote host and identity, shared by every session of this process: each
 * session would otherwise pay a handshake and hold its own share of the server's limits.
 */
export function leaseConnection(settings: ResolvedSshSettings): ConnectionLease {
  const key = identityOf(settings);
  let entry = pool.get(key);
  if (!entry) pool.set(key, (entry = { connection: new SshConnection(settings), users: 0 }));
  const held = entry;
  held.users++;
  let released = false;
  return {
    connection: held.connection,
    release() {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      if (pool.get(key) === held) pool.delete(key);
      held.connection.close();
    },
  };
}

/** Library surface of the ssh sandbox backend. */
export { SshWorkspace, type SshSessionContext, type SshWorkspaceOptions } from './ssh-workspace.js';
export { SshConnection } from './connection.js';
export { leaseConnection, type ConnectionLease } from './connection-pool.js';
export { SshShell } from './ssh-shell.js';
export { SshSettingsSchema, SshSyncSettingsSchema, type SshSettings, type ResolvedSshSettings, type SshSyncSettings } from './settings.js';
export { fingerprintOf, isHostKeyTrusted, revokedKeysFromKnownHosts, trustedKeysFromKnownHosts } from './host-key.js';
export { createSshPlugin } from './plugin.js';
export { listRemoteCopies, pruneRemoteCopies, pruneRemoteCopiesOf, type PruneRule, type RemoteCopyInfo } from './prune.js';
export { sshDataDirFor } from './data-dir.js';

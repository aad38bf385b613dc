/** Library surface of the ssh sandbox backend. */
export { SshWorkspace, type SshSessionContext } from './ssh-workspace.js';
export { SshConnection } from './connection.js';
export { SshShell } from './ssh-shell.js';
export { SshSettingsSchema, type SshSettings, type ResolvedSshSettings } from './settings.js';
export { fingerprintOf, isHostKeyTrusted, trustedKeysFromKnownHosts } from './host-key.js';
export { uploadDirectory, downloadDirectory } from './sync.js';
export { createSshPlugin } from './plugin.js';

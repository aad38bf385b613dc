import type { PluginConfinementInput } from '../../../protocol/v1/confinement.js';
import { definePlugin } from '../../../sdk/plugin-api.js';
import { createLocalBackend } from './backend.js';

export const SANDBOX_LOCAL_PLUGIN = { id: 'sandbox-local', version: '0.1.0' } as const;

/**
 * What the backend needs confined: the workspaces read-write, the rest of the host read-only
 * (its commands see it so), and to start processes. In `danger-full-access` its commands run on
 * the whole host, so the plugin runs unconfined; `exec.network` gives its `workspace-write`
 * commands the network, so the plugin needs it too.
 */
export const SANDBOX_LOCAL_CONFINEMENT = {
  filesystem: [
    { path: '/', access: 'ro' },
    { path: '${workspace}', access: 'rw' },
    // Skill directories outside the workspace, mounted read-only into local sessions.
    { path: '${skillRoots}', access: 'ro' },
  ],
  network: 'none',
  spawn: true,
  when: [
    { setting: 'exec.mode', equals: 'danger-full-access', unconfined: true },
    { setting: 'exec.network', equals: true, add: { network: 'host' } },
  ],
} as const satisfies PluginConfinementInput;

/** The embedded default backend: the host itself, behind workspace path admission. */
export function createSandboxLocalPlugin() {
  return definePlugin({ ...SANDBOX_LOCAL_PLUGIN, sandboxBackends: [createLocalBackend()], confinement: SANDBOX_LOCAL_CONFINEMENT });
}

import { definePlugin } from '../../../sdk/plugin-api.js';
import { createLocalBackend } from './backend.js';

export const SANDBOX_LOCAL_PLUGIN = { id: 'sandbox-local', version: '0.1.0' } as const;

/** The embedded default backend: the host itself, behind workspace path admission. */
export function createSandboxLocalPlugin() {
  return definePlugin({ ...SANDBOX_LOCAL_PLUGIN, sandboxBackends: [createLocalBackend()] });
}

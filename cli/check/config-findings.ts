/**
 * What `pincer config check` and `pincer doctor` judge in a config the schema accepts: every
 * plugin's module or command resolves, every agent's docker settings pass the backend's security
 * validation, no sandbox backend id is claimed by two enabled plugins (judged from their static
 * manifests), and which settings are valid but weaken a fence or do nothing.
 */
import type { ConfigIssue, KernelApi, PincerConfig } from '../kernel.js';
import { confinementWarnings } from '../../kernel/confine/dangerous-settings.js';
import { backendConflicts, backendsFromManifests } from '../../kernel/workspace/backend-conflicts.js';
import { auditDockerSandboxes, type SandboxAudit } from '../sandbox/audit.js';
import { checkPluginEntries } from './plugin-resolution.js';

export interface ConfigFindings {
  /** Problems: the first call (or plugin start) would fail on each. */
  issues: ConfigIssue[];
  /** `dangerouslyAllow…` overrides, `dangerouslyUnconfined` and `danger-full-access` exec in effect: valid, but each lifts a fence. */
  overrides: ConfigIssue[];
  /** Allow, alsoAllow and deny entries that match no tool, group or plugin: they do nothing. */
  policy: ConfigIssue[];
}

const plain = ({ path, message }: ConfigIssue): ConfigIssue => ({ path, message });

export function configFindings(api: KernelApi, config: PincerConfig, cwd: string, env: NodeJS.ProcessEnv): ConfigFindings {
  let audit: SandboxAudit;
  try {
    audit = auditDockerSandboxes(config, cwd);
  } catch (error) {
    audit = { issues: [{ path: 'agents', message: (error as Error).message }], warnings: [] };
  }
  return {
    issues: [...checkPluginEntries(config, cwd, env), ...audit.issues.map(plain), ...sandboxBackendConflicts(config)],
    overrides: [...audit.warnings.map(plain), ...confinementWarnings(config.plugins as Parameters<typeof confinementWarnings>[0])],
    policy: api.policyWarnings(config),
  };
}

/** A bundled backend id another plugin claims, or an id two plugins declare (see kernel/workspace/backend-conflicts.ts). */
function sandboxBackendConflicts(config: PincerConfig): ConfigIssue[] {
  const typed = config as Parameters<typeof backendConflicts>[0];
  return backendConflicts(typed, backendsFromManifests(typed));
}

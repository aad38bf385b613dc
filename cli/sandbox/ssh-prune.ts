/**
 * The ssh backend's part of `pincer sandbox prune`: the documented hook is the ssh plugin's
 * `pruneRemoteCopiesOf(settingsList, rule, dataDir)`. It removes the remote workspace copies
 * that no live plugin process (on this host, with this state directory) holds and that are
 * idle or old past the rule, once per distinct ssh target of the config (plugin settings, then
 * each agent's `sandbox.ssh` overrides).
 */
import { pruneRemoteCopiesOf, sshDataDirFor, type PruneRule, type SshSettings } from '../../plugins/sandbox-ssh/src/index.js';
import type { PincerConfig } from '../kernel.js';
import { agentIds, agentSandbox, pluginSettings } from './settings.js';

/** The copies removed, as `user@host:path`; undefined when the config has no ssh backend. */
export async function pruneSshCopies(config: PincerConfig, rule: PruneRule, env: NodeJS.ProcessEnv): Promise<string[] | undefined> {
  const base = pluginSettings(config, 'sandbox-ssh');
  if (base === undefined || !base.ssh) return undefined;
  const settingsList = [undefined, ...agentIds(config)].map((agent) => ({ ...(base.ssh as object), ...agentSandbox(config, agent).ssh }) as SshSettings);
  return pruneRemoteCopiesOf(settingsList, rule, sshDataDirFor(env));
}

import type { PincerConfig } from './schema.js';
import { ConfigError } from './errors.js';

/**
 * The kernel's own copy of the config it was created with. The kernel reads parts of its config
 * when it first needs them (the policy steps of a run shape not seen yet, say), so a host that
 * changed its object after `createKernel` changed some run shapes and not others. A copy taken
 * at creation makes every later change to the host's object a no-op, as for a config file.
 */
export function snapshotConfig(config: PincerConfig): PincerConfig {
  try {
    return structuredClone(config);
  } catch (cause) {
    throw new ConfigError('CONFIG_INVALID', 'the config given to createKernel must be plain data (what a JSON config file holds)', [{ path: '(root)', message: (cause as Error).message }], undefined, { cause });
  }
}

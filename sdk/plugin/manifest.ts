import { PROTOCOL_VERSION, type ContributionsInput } from '../../protocol/index.js';
import { pluginContributions } from './define.js';
import type { PluginDefinition } from './types.js';

/** The static manifest (`pincer-plugin.json`) of a plugin, for lazy activation. @since 1 */
export interface PluginManifestFile {
  id: string;
  version: string;
  protocolVersion: number;
  contributes: ContributionsInput;
}

/**
 * Builds a plugin's manifest from its definition, so the file and the handshake never disagree.
 * Write it with `JSON.stringify(pluginManifest(plugin), null, 2)` next to the plugin's entry.
 * @since 1
 */
export function pluginManifest(plugin: PluginDefinition): PluginManifestFile {
  return { id: plugin.id, version: plugin.version, protocolVersion: PROTOCOL_VERSION, contributes: pluginContributions(plugin) };
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { Contributions, SUPPORTED_PROTOCOL_VERSIONS, describeVersionMismatch } from '../../protocol/index.js';
import type { PluginConfig } from './config.js';
import { escapeForTerminal } from './escape.js';
import { KernelError, describeIssues } from './errors.js';
import { splitRawTools } from './raw-tools.js';

/** The static manifest file a plugin may ship for lazy activation. */
export const MANIFEST_FILE = 'pincer-plugin.json';

export const PluginManifestSchema = z.object({
  id: z.string().min(1).max(64),
  version: z.string().regex(/^[\x21-\x7e]{1,64}$/, 'must be 1-64 printable ASCII characters without spaces'),
  protocolVersion: z.number().int().positive(),
  contributes: Contributions,
});
export type PluginManifest = z.output<typeof PluginManifestSchema>;

/** Where the manifest is: configured path, or `pincer-plugin.json` next to the module entry. */
export function manifestPath(config: PluginConfig): string | undefined {
  if (config.manifest) return path.resolve(config.cwd ?? '.', config.manifest);
  if (config.module) {
    const candidate = path.join(path.dirname(path.resolve(config.cwd ?? '.', config.module)), MANIFEST_FILE);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Reads and checks a manifest (at host start, never during assembly). Its tools come back
 * unchecked in `rawTools` (and `contributes.tools` is empty): the host screens them one by one,
 * as it does a handshake's, so one bad tool does not refuse the others.
 */
export function loadManifest(config: PluginConfig, file: string): PluginManifest & { rawTools: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}": cannot read manifest ${file}: ${(cause as Error).message}`, { pluginId: config.id, cause });
  }
  const { envelope, tools } = splitRawTools(json);
  const parsed = PluginManifestSchema.safeParse(envelope);
  if (!parsed.success) {
    throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}": manifest ${file} is invalid: ${describeIssues(parsed.error)}`, { pluginId: config.id, cause: parsed.error });
  }
  if (parsed.data.id !== config.id) {
    throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}": manifest ${file} declares id ${JSON.stringify(escapeForTerminal(parsed.data.id))}`, { pluginId: config.id });
  }
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(parsed.data.protocolVersion)) {
    const message = describeVersionMismatch({ pluginId: config.id, kernelVersions: SUPPORTED_PROTOCOL_VERSIONS, pluginVersions: [parsed.data.protocolVersion] });
    throw new KernelError('VERSION_MISMATCH', message, { pluginId: config.id });
  }
  return { ...parsed.data, rawTools: tools };
}

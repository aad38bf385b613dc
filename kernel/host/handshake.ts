import type { MessageConnection } from 'vscode-jsonrpc/node';
import {
  Handshake,
  HandshakeResult,
  SUPPORTED_PROTOCOL_VERSIONS,
  WORKSPACE_OPERATION_NAMES,
  describeVersionMismatch,
  type PeerInfo,
} from '../../protocol/index.js';
import { KernelError, describeIssues, toKernelError } from './errors.js';
import { splitRawTools } from './raw-tools.js';

export interface HandshakeOptions {
  pluginId: string;
  kernel: PeerInfo;
  settings: Record<string, unknown>;
  timeoutMs: number;
  protocolVersions?: readonly number[];
}

/**
 * Sends the handshake with a deadline and re-checks the answer: shape, chosen version, identity.
 * Every refusal names the plugin and the fix. The tools come back unchecked in `rawTools` (and
 * `result.contributes.tools` is empty): the host screens them one by one.
 */
export async function performHandshake(conn: MessageConnection, options: HandshakeOptions): Promise<{ result: HandshakeResult; rawTools: unknown }> {
  const offered = options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  const { pluginId } = options;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KernelError('HANDSHAKE_FAILED', `plugin "${pluginId}" did not answer the handshake within ${options.timeoutMs} ms`, { pluginId, retryable: true })),
      options.timeoutMs,
    );
  });
  let raw: unknown;
  try {
    const request = conn.sendRequest(Handshake.type, {
      protocolVersions: [...offered],
      kernel: options.kernel,
      capabilities: { workspace: [...WORKSPACE_OPERATION_NAMES], progress: true, log: true },
      settings: options.settings,
    });
    raw = await Promise.race([request, deadline]);
  } catch (error) {
    const e = toKernelError(error, pluginId, 'handshake');
    if (e.code === 'VERSION_MISMATCH') throw new KernelError('VERSION_MISMATCH', e.message, { pluginId, cause: error, data: e.data });
    if (e.code === 'PLUGIN_ERROR' || e.code === 'PLUGIN_NOT_READY') throw new KernelError('HANDSHAKE_FAILED', e.message, { pluginId, cause: error });
    throw e;
  } finally {
    clearTimeout(timer);
  }
  const { envelope, tools } = splitRawTools(raw);
  const parsed = HandshakeResult.safeParse(envelope);
  if (!parsed.success) {
    throw new KernelError('HANDSHAKE_FAILED', `plugin "${pluginId}" answered the handshake with an invalid shape: ${describeIssues(parsed.error)}`, { pluginId, cause: parsed.error });
  }
  const result = parsed.data;
  if (!offered.includes(result.protocolVersion)) {
    const message = describeVersionMismatch({ pluginId, kernelVersions: offered, pluginVersions: [result.protocolVersion] });
    throw new KernelError('VERSION_MISMATCH', message, { pluginId });
  }
  if (result.plugin.id !== pluginId) {
    throw new KernelError('HANDSHAKE_FAILED', `plugin configured as "${pluginId}" introduced itself as ${JSON.stringify(result.plugin.id)}; fix the id in the config or the plugin`, { pluginId });
  }
  return { result, rawTools: tools };
}

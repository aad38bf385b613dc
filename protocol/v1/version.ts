/**
 * Version facts of the wire protocol, and the negotiation rule.
 *
 * Two axes, as go-plugin does: the protocol version must be one both sides speak exactly,
 * while plugin and kernel versions (semver strings in the handshake) are informative only.
 */

/** The protocol version this folder describes. @since 1 */
export const PROTOCOL_VERSION = 1;

/** Every protocol version this build of the kernel and SDK speaks, newest last. @since 1 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = Object.freeze([1]);

/** Env var the kernel sets on every plugin; a plugin without it was started by hand. @since 1 */
export const PLUGIN_COOKIE_ENV = 'PINCER_PLUGIN_COOKIE';
/** The cookie's value. Not a secret: it only tells "started by a kernel" from "started by hand". @since 1 */
export const PLUGIN_COOKIE_VALUE = 'pincer-plugin-1c6f2b9e4a7d4f05';
/** Env var naming the transport: `fd3` (default) or `stdio`. @since 1 */
export const TRANSPORT_ENV = 'PINCER_TRANSPORT';
/** Env var carrying the kernel's pid, so the plugin's watchdog can tell when it died. @since 1 */
export const KERNEL_PID_ENV = 'PINCER_KERNEL_PID';
/** Env var carrying the plugin id the kernel configured. @since 1 */
export const PLUGIN_ID_ENV = 'PINCER_PLUGIN_ID';
/**
 * Env var naming the plugin's private data directory (owner-only, one per plugin id, created by
 * the kernel before the plugin starts). Without it (tests, hand starts) use a private temp dir.
 * @since 1
 */
export const PLUGIN_DATA_DIR_ENV = 'PINCER_PLUGIN_DATA_DIR';
/** File descriptor carrying the RPC in the `fd3` transport. @since 1 */
export const RPC_FD = 3;
/** Default cap on one framed message, in bytes (8 MiB). @since 1 */
export const DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/**
 * Answers a server lets wait unread for one peer, in bytes (8 MiB): past it, it serves that
 * peer's next request once the peer has read enough of them. @since 1
 */
export const MAX_UNREAD_ANSWER_BYTES = 8 * 1024 * 1024;

/** Transports a plugin can be started with. @since 1 */
export type TransportKind = 'fd3' | 'stdio';

/** Picks the newest version both sides speak, or undefined when there is none. */
export function negotiateProtocolVersion(offered: readonly number[], supported: readonly number[]): number | undefined {
  let best: number | undefined;
  for (const v of offered) if (supported.includes(v) && (best === undefined || v > best)) best = v;
  return best;
}

/** The refusal text when the two sides share no version: names both sides and the fix. */
export function describeVersionMismatch(args: {
  pluginId: string;
  kernelVersions: readonly number[];
  pluginVersions: readonly number[];
}): string {
  const k = `[${args.kernelVersions.join(', ')}]`;
  const p = `[${args.pluginVersions.join(', ')}]`;
  const newestKernel = Math.max(...args.kernelVersions);
  const newestPlugin = Math.max(...args.pluginVersions);
  const fix =
    newestPlugin > newestKernel
      ? `upgrade the kernel (pincer) to a release that speaks protocol ${newestPlugin}, or use an older build of the plugin that speaks protocol ${newestKernel}`
      : `rebuild plugin "${args.pluginId}" against a pincer/sdk that speaks protocol ${newestKernel}`;
  return `Plugin "${args.pluginId}" speaks protocol version(s) ${p}; this kernel speaks ${k}. No common version: ${fix}.`;
}

import * as z from 'zod';
import { WORKSPACE_ERROR_CODES } from './workspace-types.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Error codes that cross the wire in a JSON-RPC error response.
 * JSON-RPC's own codes plus Pincer's reserved range -32050…-32000.
 *
 * @since 1
 */
export const ProtocolErrorCodes = Object.freeze({
  /** JSON-RPC: invalid JSON was received. */
  ParseError: -32700,
  /** JSON-RPC: the message is not a valid request object. */
  InvalidRequest: -32600,
  /** JSON-RPC: the method does not exist on the receiver. */
  MethodNotFound: -32601,
  /** JSON-RPC: params failed the method's schema. */
  InvalidParams: -32602,
  /** JSON-RPC: an internal error of the receiver. */
  InternalError: -32603,
  /** The plugin process died while the request was in flight. */
  PluginCrashed: -32000,
  /** The handshake failed (bad answer, timeout, wrong shape). */
  HandshakeFailed: -32001,
  /** No protocol version in common; message names both sides' versions. */
  VersionMismatch: -32002,
  /** A policy (hook, allowlist) refused the operation. */
  PolicyDenied: -32003,
  /** The per-call deadline passed. */
  DeadlineExceeded: -32004,
  /** The receiver did not declare the capability the method needs. */
  CapabilityMissing: -32005,
  /** A framed message exceeded the size cap. */
  MessageTooLarge: -32006,
  /** The plugin is not ready (starting, restarting, failed, stopped). */
  PluginNotReady: -32007,
  /** A workspace operation failed; `data.code` is one of WORKSPACE_ERROR_CODES. */
  WorkspaceError: -32008,
  /** A tool handler threw; `data.tool` names it. */
  ToolFailed: -32009,
  /** The named tool is not contributed by this plugin. */
  ToolNotFound: -32010,
  /** The request was cancelled by its sender (`$/cancelRequest`). */
  RequestCancelled: -32011,
  /** The kernel refused a `turns/*`, `run/*` or `sessions/*` request; `data.reason` is one of TURN_REFUSAL_REASONS. */
  TurnRefused: -32012,
  /**
   * A confined plugin was refused something it did not declare (a path, a host, a process);
   * `data.detail` is `{ operation, target }`. @since 1
   */
  ConfinementDenied: -32013,
  /**
   * A backend would not answer a request on its direct channel (a session it does not hold, a
   * grant that does not verify, too many requests in flight, a failure that is not a workspace
   * refusal): the sender sends the same request through the kernel. @since 1
   */
  DirectGrantRefused: -32014,
});

export type ProtocolErrorCodeName = keyof typeof ProtocolErrorCodes;

/** Lowest code of the reserved range. */
export const RESERVED_ERROR_RANGE = Object.freeze({ min: -32050, max: -32000 });

/**
 * The `data` member of every Pincer error response. All fields optional so that any
 * JSON-RPC peer's error still parses.
 *
 * @since 1
 */
export const ProtocolErrorData = lazySchema(() => z.looseObject({
  /** For WorkspaceError: one of WORKSPACE_ERROR_CODES. */
  code: z.enum(WORKSPACE_ERROR_CODES).optional().describe('Workspace error code (WorkspaceError only).'),
  /** The plugin the error concerns. */
  pluginId: z.string().optional(),
  /** The tool the error concerns. */
  tool: z.string().optional(),
  /** Workspace path the error concerns. */
  path: z.string().optional(),
  /** For TurnRefused: one of TURN_REFUSAL_REASONS. */
  reason: z.string().optional(),
  /** Free-form detail for humans and logs. */
  detail: z.unknown().optional(),
}));
export type ProtocolErrorData = z.infer<typeof ProtocolErrorData>;

/** The error object of a JSON-RPC error response. @since 1 */
export const ProtocolErrorShape = lazySchema(() => z.object({
  code: z.number().int(),
  message: z.string(),
  data: ProtocolErrorData.optional(),
}));
export type ProtocolErrorShape = z.infer<typeof ProtocolErrorShape>;

/** Name of a code, for logs ("MessageTooLarge (-32006)"); undefined for foreign codes. */
export function protocolErrorName(code: number): ProtocolErrorCodeName | undefined {
  for (const [name, value] of Object.entries(ProtocolErrorCodes)) if (value === code) return name as ProtocolErrorCodeName;
  return undefined;
}

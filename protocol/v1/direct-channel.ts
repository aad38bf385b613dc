/**
 * The direct channel: a tool plugin's read-only workspace requests, sent straight to its
 * session's sandbox backend over a Unix socket instead of through the kernel.
 *
 * The kernel still decides which sessions a plugin may address: it hands a plugin a grant for
 * a session (in the call context, `workspaceChannel`) only once that plugin has been called for
 * the session, and the backend serves a request only with a grant that verifies against the
 * secret the kernel gave it in that session's `sandbox/prepare`. So a direct request reaches
 * exactly the sessions a kernel-routed one could, and the backend runs the same path guard.
 * Only operations that change nothing travel here; a refusal is reported to the kernel (and so
 * to the audit trail) before the plugin hears it; anything else the backend would not answer
 * here comes back as DirectGrantRefused, and the plugin sends the request through the kernel.
 */
import * as z from 'zod';
import { defineRequest, type RequestDescriptor } from '../define.js';
import { lazySchema } from '../lazy-schema.js';
import { WORKSPACE_OPERATIONS } from './workspace.js';
import { WORKSPACE_ERROR_CODES } from './workspace-types.js';

/**
 * The longest direct socket path either end uses, in bytes. sun_path holds 107 and a longer
 * path is cut short without an error (libuv), which would name someone else's socket. @since 1
 */
export const DIRECT_SOCKET_PATH_MAX_BYTES = 100;

/** The operations a tool plugin may send on the direct channel: those that change nothing. */
export const DIRECT_OPERATIONS = Object.freeze(['read', 'stat', 'readDirectory'] as const);
export type DirectOperation = (typeof DIRECT_OPERATIONS)[number];

/** What a call's context carries when its session can be reached directly. @since 1 */
export const WorkspaceChannel = lazySchema(() => z.object({
  /** Path of the backend's Unix socket. */
  socket: z.string().min(1),
  /** The plugin id the grant was made out to (sent back with every request). */
  plugin: z.string().min(1),
  /** The grant: valid for this plugin and the call's session, until the session is prepared again. */
  grant: z.string().min(1),
}));
export type WorkspaceChannel = z.infer<typeof WorkspaceChannel>;

type Op<K extends DirectOperation> = (typeof WORKSPACE_OPERATIONS)[K];
type DirectDescriptor<K extends DirectOperation> = RequestDescriptor<
  z.ZodType<z.output<Op<K>['params']> & { session: string; plugin: string; grant: string }, z.input<Op<K>['params']> & { session: string; plugin: string; grant: string }>,
  Op<K>['result']
>;

function directMethod<K extends DirectOperation>(op: K): DirectDescriptor<K> {
  const { params, result } = WORKSPACE_OPERATIONS[op];
  return defineRequest(`direct/${op}`, lazySchema(() => params.extend({ session: z.string().min(1), plugin: z.string().min(1), grant: z.string().min(1) })), result, {
    direction: 'plugin-to-plugin',
    since: 1,
    doc: `WorkspaceService.${op} sent by a tool plugin on a backend's direct channel, with the grant of its call context. Errors: WorkspaceError with data.code (already on the kernel's record), or DirectGrantRefused (send it through the kernel).`,
  }) as unknown as DirectDescriptor<K>;
}

/** Tool plugin → backend plugin on the direct channel. @since 1 */
export const DirectRead = directMethod('read');
export const DirectStat = directMethod('stat');
export const DirectReadDirectory = directMethod('readDirectory');

/** `direct/<op>` descriptors by operation. */
export const DIRECT_METHODS = { read: DirectRead, stat: DirectStat, readDirectory: DirectReadDirectory } as const;

/** A backend reports a refusal it made on the direct channel; answered once the kernel has it on record. @since 1 */
export const SandboxDirectFailure = defineRequest(
  'sandbox/directFailure',
  lazySchema(() => z.object({
    session: z.string().min(1),
    /** The plugin the grant was made out to. */
    plugin: z.string().min(1),
    operation: z.enum(DIRECT_OPERATIONS),
    code: z.enum(WORKSPACE_ERROR_CODES),
    message: z.string(),
  })),
  lazySchema(() => z.null()),
  {
    direction: 'plugin-to-kernel',
    since: 1,
    doc: 'A backend reports a workspace refusal it made on its direct channel; it answers the tool plugin once the kernel has answered this (the refusal is then on the audit trail).',
  },
);

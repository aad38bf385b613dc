import * as z from 'zod';
import { WorkspaceChannel } from './direct-channel.js';
import { defineNotification, defineProgress, defineRequest } from '../define.js';
import { ToolMetadataFields, ToolResultContentBlocks } from './tool-metadata.js';
import { ExecOutputSegmentSchema } from './workspace.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * What a tool name (and a family, and an alias) may be: letters, digits, `_`, `.` and `-`, 1 to 64
 * characters. Names reach terminals, logs and model APIs; nothing else is needed to name a tool.
 * @since 1
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** Longest tool description the kernel accepts. @since 1 */
export const MAX_TOOL_DESCRIPTION_CHARS = 16 * 1024;

const ToolName = lazySchema(() => z.string().regex(TOOL_NAME_PATTERN, 'must match ^[A-Za-z0-9_.-]{1,64}$'));

/** A tool a plugin contributes. @since 1 */
export const ToolContribution = lazySchema(() => z.object({
  /** Name the model calls; unique across the kernel. */
  name: ToolName,
  description: z.string().max(MAX_TOOL_DESCRIPTION_CHARS),
  /** JSON Schema (draft 2020-12 subset) of the tool's arguments object. */
  inputSchema: z.record(z.string(), z.unknown()),
  /** Tool family used by policy and assembly (e.g. `fs`, `shell`, `web`). */
  family: ToolName,
  /** Other names policy lists may use for this tool. */
  aliases: z.array(ToolName).max(16).optional(),
  /** Whether the model may run this tool in parallel with others. */
  executionMode: z.enum(['parallel', 'sequential']).optional(),
  /** Per-tool idle deadline; it can only shorten the operator's `callMs`, never lengthen it. */
  timeoutMs: z.number().int().positive().optional(),
  ...ToolMetadataFields,
}));
export type ToolContribution = z.infer<typeof ToolContribution>;

/** Who is calling, forwarded so a tool's workspace requests reach the right sandbox. @since 1 */
export const CallContext = lazySchema(() => z.object({
  sessionKey: z.string().optional(),
  agentId: z.string().optional(),
  toolCallId: z.string().optional(),
  /** Names this call in flight to the kernel (`run/describe`, `turns/start`); valid only while it runs. @since 1 */
  callToken: z.string().optional(),
  /** Wall-clock deadline (ms since epoch) the kernel will enforce. */
  deadline: z.number().optional(),
  /** Where the session's backend serves read-only requests directly, and the grant to send (protocol.md, "Direct channel"). @since 1 */
  workspaceChannel: WorkspaceChannel.optional(),
}));
export type CallContext = z.infer<typeof CallContext>;

/** @since 1 */
export const ToolInvokeParams = lazySchema(() => z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** When present, the plugin may send `$/progress` with this token. */
  progressToken: z.union([z.string(), z.number()]).optional(),
  context: CallContext.optional(),
}));
export type ToolInvokeParams = z.input<typeof ToolInvokeParams>;

/** One block of a tool result. @since 1 */
export const ToolContent = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
  ...ToolResultContentBlocks,
]));
export type ToolContent = z.infer<typeof ToolContent>;

/** @since 1 */
export const ToolInvokeResult = lazySchema(() => z.object({
  content: z.array(ToolContent),
  /** Structured data for the host (not shown to the model). */
  details: z.unknown().optional(),
  /** The tool ran and failed in a way the model should see. */
  isError: z.boolean().optional(),
  /** Machine-readable result; valid against the tool's `outputSchema` when it declares one. @since 1 */
  structuredContent: z.record(z.string(), z.unknown()).optional(),
}));
export type ToolInvokeResult = z.infer<typeof ToolInvokeResult>;

/** Runs one of the plugin's tools. @since 1 */
export const ToolInvoke = defineRequest('tool/invoke', ToolInvokeParams, ToolInvokeResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Runs a contributed tool. Cancellable with $/cancelRequest; may report $/progress when given a progressToken; a progress report extends the deadline up to the hard cap.',
});

/** @since 1 */
export const ToolsListChangedParams = lazySchema(() => z.object({ tools: z.array(ToolContribution) }));
export type ToolsListChangedParams = z.infer<typeof ToolsListChangedParams>;

/** Plugin → kernel: the plugin's tool list is now `tools` (replaces the cached list). @since 1 */
export const ToolsListChanged = defineNotification('tools/listChanged', ToolsListChangedParams, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'Replaces the kernel’s cached tool contributions of this plugin. New assemblies see the new list.',
  capability: 'toolsListChanged',
});

/** Value of a tool's progress report. @since 1 */
export const ToolProgressValue = lazySchema(() => z.object({
  message: z.string().optional(),
  progress: z.number().optional(),
  total: z.number().optional(),
  /**
   * A command's output since the previous report, by stream (`exec`); `message` then carries the
   * same output as text, labelled as in the result. @since 1
   */
  output: z.array(ExecOutputSegmentSchema).optional(),
}));
export type ToolProgressValue = z.infer<typeof ToolProgressValue>;

/** `$/progress {token, value}` for a `tool/invoke` that carried `progressToken`. @since 1 */
export const ToolProgress = defineProgress('tool', ToolProgressValue, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'Progress of a running tool call, under the token the kernel sent in tool/invoke.',
});

/**
 * The shapes of the call path: a kernel tool, its result, the hooks and trusted policies
 * that judge a call, and what the gate decides.
 */
import type { RunContext } from '../policy/run-context.js';

/** The one run context: what the host assembles with, and what policies and hooks receive. */
export type { RunContext };

import type { McpContentBlock, ToolMetadata } from '../tool-search/metadata.js';

/** A JSON Schema object (draft-agnostic; providers get a normalized copy). */
export type JSONSchema = Record<string, unknown>;

/** One block of a tool result; audio and resources are passed through from MCP servers. */
export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'json'; json: unknown }
  | McpContentBlock;

/** What a tool returns to the model. */
export interface ToolResult {
  content: ToolContent[];
  details?: Record<string, unknown>;
  isError?: boolean;
  /** Machine-readable result, valid against the tool's `outputSchema`. */
  structuredContent?: Record<string, unknown>;
}

/** Per-call context handed to `execute`. */
export interface ToolExecuteContext {
  signal?: AbortSignal;
  toolCallId: string;
  onProgress?(progress: unknown): void;
}

/** A tool as the kernel holds it: in-process, or a proxy for a plugin's tool. */
export interface KernelTool extends ToolMetadata {
  name: string;
  description: string;
  parameters: JSONSchema;
  /** Absent for core tools. */
  pluginId?: string;
  executionMode?: 'parallel' | 'sequential';
  execute(params: Record<string, unknown>, ctx: ToolExecuteContext): Promise<ToolResult>;
}

/** A request for operator approval, as a hook or trusted policy asks for it. */
export interface ApprovalRequest {
  title: string;
  description: string;
  severity?: 'info' | 'warning' | 'critical';
  /** Approval wait in ms; clamped to (0, 600 000], default 120 000. */
  timeoutMs?: number;
  /** When set, a timed-out approval is a veto with this reason instead of a failure. */
  timeoutReason?: string;
  /** Decisions the operator may choose; default all three. */
  allowedDecisions?: ApprovalDecision[];
  /** Filled by the gate with the registering plugin. */
  pluginId?: string;
  /** Told how the approval ended; fire-and-forget, its failures are ignored. */
  onResolution?(resolution: ApprovalResolution): void;
}

/** What the operator can decide. */
export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';
/** How an approval ended, including the non-decisions. */
export type ApprovalResolution = ApprovalDecision | 'timeout' | 'cancelled';

/** What a before-call handler may answer. `undefined`/`null` = no opinion. */
export interface BeforeToolCallResult {
  block?: boolean;
  blockReason?: string;
  /** Shallow-merged over the current params. */
  params?: Record<string, unknown>;
  requireApproval?: ApprovalRequest;
}

/** The event a handler sees: its own deep copy, so mutating it changes nothing. */
export interface BeforeToolCallEvent {
  toolName: string;
  toolCallId: string;
  params: Record<string, unknown>;
  pluginId?: string;
  runId?: string;
  sessionKey?: string;
  agentId?: string;
  trigger?: string;
}

/** A plugin's `before_tool_call` handler registration. */
export interface HookRegistration {
  pluginId: string;
  /** Higher runs first; default 0; ties keep registration order. */
  priority?: number;
  /** Per-handler timeout, default 15 000 ms. */
  timeoutMs?: number;
  /** Limit the hook to some tools (receives the normalized name). */
  toolMatcher?: (toolName: string) => boolean;
  handler(event: BeforeToolCallEvent, ctx: RunContext): Promise<BeforeToolCallResult | undefined | null>;
}

/** A decision from a trusted policy. `allow: false` is the same as `block: true`. */
export interface TrustedPolicyDecision extends BeforeToolCallResult {
  allow?: boolean;
}

/** A policy registered by a trusted plugin or the host; runs before ordinary hooks. */
export interface TrustedToolPolicy {
  id: string;
  pluginId?: string;
  timeoutMs?: number;
  /** The machine-readable code a block by this policy carries (default `POLICY_BLOCKED`). */
  blockCode?: string;
  evaluate(
    event: BeforeToolCallEvent,
    ctx: RunContext,
  ): TrustedPolicyDecision | undefined | null | Promise<TrustedPolicyDecision | undefined | null>;
}

/** Minimal logger the call path writes to. */
export interface CallPathLogger {
  debug?(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

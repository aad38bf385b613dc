export { createToolGate, isGatedTool } from './create-gate.js';
export type { ToolGate, ToolGateOptions } from './create-gate.js';
export { evaluateBeforeCall } from './before-call.js';
export type { BeforeCallInput } from './before-call.js';
export { BEFORE_CALL_MERGE_TABLE, AFTER_STAGE_RULES, MERGE_RULES, mergeDecision, emptyDecision, stopsChain } from './merge-table.js';
export type { MergedDecision, MergeRow } from './merge-table.js';
export { mergeParams, detachedCopy, deepFreeze } from './params.js';
export { readHandlerResult, InvalidHookResultError } from './hook-result.js';
export { selectHooks, hookHandler, trustedPolicyHandler } from './handlers.js';
export { runHandlerChain, HandlerFailedError } from './handler-chain.js';
export type { ChainHandler } from './handler-chain.js';
export { requestApproval } from './approvals.js';
export { approvalDigest } from './approval-digest.js';
export { DEFAULT_APPROVAL_TIMEOUT_MS, MAX_APPROVAL_TIMEOUT_MS } from './approval-surface.js';
export type { ApprovalSurface, ApprovalSurfaceRequest } from './approval-surface.js';
export { buildBlockedToolResult } from './outcome.js';
export type { GateOutcome, GrantedApproval, VetoCode } from './outcome.js';
export { executeGated, settleGatedCall, invalidParamsOutcome } from './execute-gated.js';
export type { GatedCall } from './execute-gated.js';
export { createGateRunState } from './run-state.js';
export type { GateRunState, LoopVerdict } from './run-state.js';
export { toJsonParams } from './json-params.js';
export type { JsonParams } from './json-params.js';
export { notifyObservers, buildAfterCallEvent, redactResultForObservers } from './after-call.js';
export type { AfterToolCallEvent, AfterToolCallObserver } from './after-call.js';
export { CallPathError, isCallPathError } from './errors.js';
export type { CallPathErrorCode, DeniedReason, FailureDisposition } from './errors.js';
export { DEFAULT_HOOK_TIMEOUT_MS, withTimeout, HandlerTimeoutError } from './with-timeout.js';
export type {
  JSONSchema, ToolContent, ToolResult, ToolExecuteContext, KernelTool, ApprovalRequest, ApprovalDecision,
  ApprovalResolution, BeforeToolCallResult, BeforeToolCallEvent, RunContext, HookRegistration,
  TrustedPolicyDecision, TrustedToolPolicy, CallPathLogger,
} from './types.js';

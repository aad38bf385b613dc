export { toToolDefinition } from './tool-definition.js';
export type { AdaptedTool } from './tool-definition.js';
export { PARAMS_PREVIEW_MAX_CHARS, redactParamsForFailureLog, toolFailureLogLine } from './failure-log.js';
export { coerceToolParams } from './coerce-params.js';
export type { CoercedParams } from './coerce-params.js';
export { normalizeToolResult, jsonResult, errorResult } from './results.js';
export {
  redactExecParamsForLog, redactToolParamsForLog, summarizeOmitted, serializeForLog, OMITTED_ENV, OMITTED_ENV_VALUE,
} from '../shared/exec-redaction.js';
export type { OmittedValueSummary } from '../shared/exec-redaction.js';
export { redactSecrets, redactSecretsInText, isSensitiveKey, REDACTED } from '../shared/redact-secrets.js';
export { formatUnknownToolMessage, formatUnavailablePluginMessage, unknownToolResult } from './unknown-tool.js';
export type { ExplainTool } from './unknown-tool.js';
export { KERNEL_CALL_CODES, failedResult, toolErrorCode } from './call-result.js';
export type { CallOutcome, CallCode, CallError, CallResult, OkCallResult, FailedCallResult, PluginAvailability } from './call-result.js';
export { classifyGatedCall } from './classify-call.js';
export type { CallClassification } from './classify-call.js';

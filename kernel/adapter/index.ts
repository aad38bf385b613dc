export { toToolDefinition, PARAMS_PREVIEW_MAX_CHARS } from './tool-definition.js';
export type { AdaptedTool } from './tool-definition.js';
export { coerceToolParams } from './coerce-params.js';
export type { CoercedParams } from './coerce-params.js';
export { normalizeToolResult, jsonResult, errorResult } from './results.js';
export {
  redactExecParamsForLog, redactToolParamsForLog, summarizeOmitted, serializeForLog, OMITTED_ENV, OMITTED_ENV_VALUE,
} from './exec-redaction.js';
export type { OmittedValueSummary } from './exec-redaction.js';
export { redactSecrets, redactSecretsInText, REDACTED } from './redact-secrets.js';
export { formatUnknownToolMessage, unknownToolResult } from './unknown-tool.js';
export type { ExplainTool } from './unknown-tool.js';

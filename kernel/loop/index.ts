export { createToolLoopDetector } from './detector.js';
export type { ToolLoopDetector, LoopOutcome } from './detector.js';
export { resolveLoopDetectionConfig, LOOP_DETECTION_DEFAULTS } from './config.js';
export type { ToolLoopDetectionConfig, ResolvedLoopDetectionConfig } from './config.js';
export type { LoopCheckResult, LoopDetectorKind } from './detectors.js';
export type { LoopHistoryRecord } from './history.js';
export { hashToolCall, isKnownPollToolCall, extractUnknownToolName, digestValue } from './hashing.js';
export { hashToolOutcome, stripVolatileSendKeys } from './outcome-hash.js';
export { stableStringify } from '../shared/stable-stringify.js';

export { createDiagnosticsEmitter } from './emitter.js';
export type { DiagnosticsEmitter, DiagnosticsListener } from './emitter.js';
export { classifyError } from './events.js';
export type {
  DiagnosticsEvent,
  DiagnosticsEventBody,
  DiagnosticsEventMap,
  DiagnosticsEventType,
  ToolExecutionEventBase,
  ToolExecutionStartedEvent,
  ToolExecutionBlockedEvent,
  ToolExecutionRejectedEvent,
  ToolLoopDetectedEvent,
  ToolExecutionErrorEvent,
  ToolExecutionCompletedEvent,
  ToolApprovalRequestedEvent,
  ToolApprovalResolvedEvent,
} from './events.js';

import { redactToolParamsForLog } from '../shared/exec-redaction.js';
import { redactSecrets, redactSecretsInText } from '../shared/redact-secrets.js';
import { classifyError } from '../diagnostics/events.js';
import { detachedCopy } from './params.js';
import { resolveTimeoutMs, withTimeout } from './with-timeout.js';
import type { CallPathLogger, RunContext, ToolContent, ToolResult } from './types.js';

/** What an after-call observer sees: redacted copies, never the objects the model receives. */
export interface AfterToolCallEvent {
  toolName: string;
  toolCallId: string;
  pluginId?: string;
  params: unknown;
  result?: ToolResult;
  error?: { errorClass: string; message: string };
  durationMs: number;
}

/** A plugin's `after_tool_call` observer. Its return value is ignored. */
export interface AfterToolCallObserver {
  pluginId: string;
  toolMatcher?: (toolName: string) => boolean;
  /** Optional cap so a stuck observer does not hold resources; no default (as in the reference). */
  timeoutMs?: number;
  handler(event: AfterToolCallEvent, ctx: RunContext): unknown;
}

function redactContent(block: ToolContent): ToolContent {
  if (block.type === 'text') return { type: 'text', text: redactSecretsInText(block.text) };
  // Image bytes are large and may show anything; observers get their size only.
  if (block.type === 'image') return { type: 'text', text: `[image ${block.mimeType}, ${block.data.length} base64 chars]` };
  return { type: 'json', json: redactSecrets(block.json) };
}

/** A redacted deep copy of a result for observers. */
export function redactResultForObservers(result: ToolResult): ToolResult {
  return {
    content: Array.isArray(result.content) ? result.content.map(redactContent) : [],
    ...(result.details ? { details: redactSecrets(result.details) as Record<string, unknown> } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}

/** Build the observer event for a finished call. */
export function buildAfterCallEvent(
  base: { toolName: string; toolCallId: string; pluginId?: string; params: unknown; durationMs: number },
  outcome: { result?: ToolResult; error?: unknown },
): AfterToolCallEvent {
  return {
    ...base,
    params: redactSecrets(redactToolParamsForLog(base.toolName, base.params)),
    ...(outcome.result ? { result: redactResultForObservers(outcome.result) } : {}),
    ...(outcome.error !== undefined
      ? {
          error: {
            errorClass: classifyError(outcome.error),
            message: redactSecretsInText(outcome.error instanceof Error ? outcome.error.message : String(outcome.error)),
          },
        }
      : {}),
  };
}

/**
 * Start every matching observer in parallel and return at once (fire-and-forget). Each
 * failure is logged; none can reach the finished call. Returns the settle promise for tests.
 */
export function notifyObservers(
  observers: readonly AfterToolCallObserver[],
  event: AfterToolCallEvent,
  run: RunContext,
  logger: CallPathLogger,
): Promise<void> {
  const runs = observers
    .filter((observer) => {
      try {
        return !observer.toolMatcher || observer.toolMatcher(event.toolName);
      } catch {
        return false; // an observer is not a guard: skipping it on a broken matcher is safe
      }
    })
    .map(async (observer) => {
      const label = `after_tool_call observer of plugin "${observer.pluginId}"`;
      const timeoutMs = resolveTimeoutMs(observer.timeoutMs, 0);
      try {
        const work = () => observer.handler(detachedCopy(event), run);
        await (timeoutMs > 0 ? withTimeout(label, timeoutMs, work) : work());
      } catch (error) {
        logger.warn(`${label} failed (ignored): ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  return Promise.all(runs).then(() => undefined);
}

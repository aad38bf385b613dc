import { isCallPathError } from '../gate/errors.js';
import type { CallPathLogger, KernelTool, ToolExecuteContext, ToolResult } from '../gate/types.js';
import { redactSecretsInText } from './redact-secrets.js';
import { redactToolParamsForLog, serializeForLog } from './exec-redaction.js';
import { coerceToolParams } from './coerce-params.js';
import { errorResult, normalizeToolResult } from './results.js';

/** A tool as handed to the model runtime: raw arguments in, a normalized result out. */
export interface AdaptedTool extends Omit<KernelTool, 'execute'> {
  label: string;
  execute(rawParams: unknown, ctx: ToolExecuteContext): Promise<ToolResult>;
}

/** Longest params preview in a failure log line. */
export const PARAMS_PREVIEW_MAX_CHARS = 600;

function preview(label: string, toolName: string, params: unknown): string {
  const text = redactSecretsInText(serializeForLog(redactToolParamsForLog(toolName, params)))
    .replace(/[\u0000-\u001f\u007f]/g, ' '); // one log line per failure
  const cut = text.length > PARAMS_PREVIEW_MAX_CHARS ? `${text.slice(0, PARAMS_PREVIEW_MAX_CHARS)}…` : text;
  return `${label}=${cut || '<empty>'}`;
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/**
 * Adapt a (usually gated) tool for the model runtime (SPEC §9.1): coerce arguments, run,
 * normalize the result. A tool's own failure becomes an error result and a redacted log
 * line; call-path failures and aborts are rethrown, because the runtime must see them.
 */
export function toToolDefinition(tool: KernelTool, logger?: CallPathLogger): AdaptedTool {
  return {
    ...tool,
    label: tool.name,
    async execute(rawParams, ctx) {
      const coerced = coerceToolParams(tool.name, tool.parameters, rawParams);
      if (!coerced.ok) return errorResult(tool.name, coerced.message);
      try {
        const result: unknown = await tool.execute(coerced.params, ctx);
        return normalizeToolResult(tool.name, result, (line) => logger?.debug?.(line));
      } catch (error) {
        if (isCallPathError(error) || isAbort(error, ctx.signal)) throw error;
        const message = error instanceof Error && error.message.trim() ? error.message : String(error);
        const inputs = [preview('raw_params', tool.name, rawParams)];
        const effective = preview('effective_params', tool.name, coerced.params);
        if (effective.slice('effective_params'.length) !== inputs[0].slice('raw_params'.length)) inputs.push(effective);
        logger?.error(`[tools] ${tool.name} failed: ${redactSecretsInText(message)} ${inputs.join(' ')}`);
        return errorResult(tool.name, message);
      }
    },
  };
}

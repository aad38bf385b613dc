import { isCallPathError } from '../gate/errors.js';
import type { CallPathLogger, KernelTool, ToolExecuteContext, ToolResult } from '../gate/types.js';
import { coerceToolParams } from './coerce-params.js';
import { toolFailureLogLine } from './failure-log.js';
import { errorResult, normalizeToolResult } from './results.js';

/** A tool as handed to the model runtime: raw arguments in, a normalized result out. */
export interface AdaptedTool extends Omit<KernelTool, 'execute'> {
  label: string;
  execute(rawParams: unknown, ctx: ToolExecuteContext): Promise<ToolResult>;
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
      if (!coerced.ok) return errorResult(tool.name, coerced.message, 'INVALID_PARAMS');
      try {
        const result: unknown = await tool.execute(coerced.params, ctx);
        return normalizeToolResult(tool.name, result, (line) => logger?.debug?.(line));
      } catch (error) {
        // Only the caller's own abort is a cancellation; an AbortError the tool throws on its own is its failure (9.13).
        if (isCallPathError(error) || ctx.signal?.aborted === true) throw error;
        const message = error instanceof Error && error.message.trim() ? error.message : String(error);
        logger?.error(toolFailureLogLine(tool.name, message, rawParams, coerced.params));
        return errorResult(tool.name, message);
      }
    },
  };
}

/**
 * A turn runner with no model: it replays a script of tool calls through the turn's real
 * tool set (policy, gate, plugins, sandbox), so every turn feature is testable end to end and
 * usable from the CLI. A script is a list of steps, or a function of the request; by default
 * the turn's message itself may carry the steps as JSON (`{"steps":[{"tool":"read",...}]}`),
 * which lets a parent's `sessions_spawn` task script its child.
 */
import type { CallResult } from '../adapter/index.js';
import type { TurnContext, TurnRequest, TurnResult, TurnRunner } from './types.js';

export interface ScriptedStep {
  tool: string;
  params?: Record<string, unknown>;
}

export type TurnScript = readonly ScriptedStep[] | ((request: TurnRequest) => readonly ScriptedStep[] | Promise<readonly ScriptedStep[]>);

/** What one scripted turn did, kept for tests and for the CLI's report. */
export interface ScriptedTurnRecord {
  request: TurnRequest;
  /** The tools the turn held. */
  tools: string[];
  results: { tool: string; result: CallResult }[];
}

/** The steps a message carries (`{"steps":[...]}`), or none. */
export function stepsFromMessage(message: string): ScriptedStep[] {
  try {
    const parsed = JSON.parse(message) as { steps?: unknown };
    if (!Array.isArray(parsed?.steps)) return [];
    return parsed.steps.filter((s): s is ScriptedStep => typeof (s as ScriptedStep)?.tool === 'string');
  } catch {
    return [];
  }
}

function textOf(result: CallResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export interface ScriptedTurnRunner extends TurnRunner {
  /** Every turn run so far, in start order. */
  readonly turns: readonly ScriptedTurnRecord[];
}

export function createScriptedTurnRunner(script: TurnScript = (request) => stepsFromMessage(request.message)): ScriptedTurnRunner {
  const turns: ScriptedTurnRecord[] = [];
  return {
    turns,
    async runTurn(request: TurnRequest, context: TurnContext): Promise<TurnResult> {
      const toolSet = context.tools();
      const record: ScriptedTurnRecord = { request, tools: toolSet.tools.map((tool) => tool.name), results: [] };
      turns.push(record);
      const steps = typeof script === 'function' ? await script(request) : script;
      for (const [i, step] of steps.entries()) {
        if (context.signal.aborted) break;
        context.progress(`step ${i + 1}/${steps.length}: ${step.tool}`);
        const result = await toolSet.execute(step.tool, step.params ?? {}, { signal: context.signal, toolCallId: `${request.runId}:${i + 1}` });
        record.results.push({ tool: step.tool, result });
      }
      if (context.signal.aborted) throw context.signal.reason ?? new Error('cancelled');
      const reply = record.results.map(({ tool, result }) => `${tool}: ${result.outcome}${textOf(result) ? ` ${textOf(result)}` : ''}`).join('\n');
      return { reply: reply || `(no steps) ${request.message.slice(0, 200)}` };
    },
  };
}

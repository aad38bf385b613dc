/**
 * `--script FILE` (`pincer call`, `pincer serve`): registers the kernel's scripted turn runner,
 * so the turns the sessions and automations tools start (a subagent, a send, a cron run) run
 * from the CLI without a model. FILE holds the steps a turn replays through its own governed
 * tool set: `[{"tool":"read","params":{...}}]` or `{"steps":[...]}`. A turn whose message
 * carries steps of its own (`{"steps":[...]}`, e.g. a `sessions_spawn` task) replays those.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from './context.js';
import { usageError } from './errors.js';
import type { ScriptedStep } from './kernel.js';

const SHAPE = 'a list of {"tool": NAME, "params": {...}} steps, or {"steps": [...]}';

const isStep = (step: unknown): step is ScriptedStep => {
  const { tool, params } = (step ?? {}) as { tool?: unknown; params?: unknown };
  return typeof tool === 'string' && tool.length > 0 && (params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params)));
};

/** The steps of `--script FILE` (resolved against the working directory); a usage error otherwise. */
export function readScript(ctx: CliContext, file: string, command: string): ScriptedStep[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(ctx.cwd, file), 'utf8'));
  } catch (cause) {
    throw usageError(`--script ${file}: ${(cause as Error).message} (expected ${SHAPE})`, command);
  }
  const steps = Array.isArray(parsed) ? parsed : (parsed as { steps?: unknown })?.steps;
  if (!Array.isArray(steps) || !steps.every(isStep)) throw usageError(`--script ${file}: expected ${SHAPE}`, command);
  return steps;
}

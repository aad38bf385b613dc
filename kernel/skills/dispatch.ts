/**
 * Slash commands bound to a tool (`command-dispatch: tool`). The command is run through the
 * run's own `execute`, so it meets exactly what the model's call of that tool would: every
 * policy layer (a tool the run does not hold is refused with the layer that removed it), the
 * loop detector, trusted policies, hooks and approvals, and the session's sandbox. There is no
 * second path to a tool (the reference once had one: GHSA-mhm4-93fw-4qr2).
 */
import type { CallResult } from '../adapter/index.js';
import { KernelUsageError } from '../assembly/usage-error.js';
import { SkillCommandError } from './errors.js';
import type { RunSkill } from './types.js';

export type Execute = (name: string, params: unknown, options?: { signal?: AbortSignal; toolCallId?: string }) => Promise<CallResult>;

/** Runs `/name args` of a run's skill. Throws SkillCommandError when the skill has no such command. */
export async function dispatchSkillCommand(skills: readonly RunSkill[], execute: Execute, name: string, args: string, options: { signal?: AbortSignal; toolCallId?: string } = {}): Promise<CallResult> {
  if (typeof name !== 'string' || typeof args !== 'string') throw new KernelUsageError('INVALID_CALL', `skills.dispatch(name, args): both must be strings, got ${typeof name} and ${typeof args}`);
  const skill = skills.find((s) => s.name === name) ?? skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!skill) throw new SkillCommandError('UNKNOWN_SKILL', `no skill "${name}" is available to this run (see \`pincer skills list\`)`);
  if (!skill.userInvocable) throw new SkillCommandError('NOT_USER_INVOCABLE', `skill "${skill.name}" is not user-invocable (user-invocable: false)`);
  if (!skill.commandTool) throw new SkillCommandError('NOT_A_TOOL_COMMAND', `skill "${skill.name}" is not bound to a tool; give its SKILL.md to the model instead`);
  return execute(skill.commandTool, { command: args, commandName: skill.name, skillName: skill.name }, options);
}

/**
 * A run's skills over MCP. The model-facing index goes into the server's `instructions`, the
 * part of `initialize` MCP clients hand to the model, since a model reads skills on its own
 * through the `read` tool it already has. Each user-invocable skill is also an MCP prompt:
 * prompts are what clients offer users as slash commands, which is what a skill is to a user.
 * A prompt asks the model to read the skill's SKILL.md at its location and follow it, so the
 * file is read through the run's policy and sandbox like any other. Resources would fit
 * neither side: clients attach them by hand and most models cannot fetch them.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Kernel, RunContext, RunSkill } from '../kernel.js';
import type { CliLogger } from '../logger.js';

export function skillPromptText(skill: RunSkill, request: string | undefined): string {
  const ask = request?.trim() ? `\n\nRequest: ${request.trim()}` : '';
  if (skill.commandTool) return `Run the ${skill.commandTool} tool with {"command": ${JSON.stringify(request?.trim() ?? '')}} for the "${skill.name}" skill command.`;
  return `Use the "${skill.name}" skill (${skill.description}). Its instructions are in ${skill.location}: read that file with the read tool and follow it.${ask}`;
}

/** Registers prompts/list and prompts/get for the run's skills; returns the unsubscribe. */
export function registerSkillPrompts(server: Server, kernel: Kernel, run: () => RunContext, logger: CliLogger): () => void {
  const skills = kernel.skills;
  if (!skills) return () => undefined;
  const current = async () => {
    // Cheap when every source is watched; lists again the ones that are not.
    await skills.refresh(run()).catch((cause: Error) => logger.warn(`skills refresh failed: ${cause.message}`));
    return skills.forRun(run()).skills.filter((s) => s.userInvocable);
  };
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await current()).map((s) => ({ name: s.name, description: s.description, arguments: [{ name: 'request', description: 'What to do with the skill', required: false }] })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const skill = (await current()).find((s) => s.name === request.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `no skill prompt "${request.params.name}" for this run`);
    return { description: skill.description, messages: [{ role: 'user', content: { type: 'text', text: skillPromptText(skill, request.params.arguments?.request) } }] };
  });
  return skills.onChange(() => {
    if (server.transport) server.sendPromptListChanged().catch((cause: Error) => logger.debug(`prompts list_changed not sent: ${cause.message}`));
  });
}

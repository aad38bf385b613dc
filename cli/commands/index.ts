/** The command table: `pincer <name>` dispatches here. */
import type { Command } from '../context.js';
import { auditCommand } from './audit.js';
import { callCommand } from './call.js';
import { configCommand } from './config.js';
import { doctorCommand } from './doctor.js';
import { explainCommand } from './explain.js';
import { initCommand } from './init.js';
import { mcpCommand } from './mcp.js';
import { outboxCommand } from './outbox.js';
import { pluginCommand } from './plugin.js';
import { pluginsCommand } from './plugins.js';
import { policyCommand } from './policy.js';
import { sandboxCommand } from './sandbox.js';
import { serveCommand } from './serve.js';
import { skillsCommand } from './skills.js';
import { tasksCommand } from './tasks.js';
import { toolsCommand } from './tools.js';

export const COMMANDS: readonly Command[] = [initCommand, toolsCommand, explainCommand, callCommand, pluginsCommand, pluginCommand, configCommand, policyCommand, doctorCommand, sandboxCommand, skillsCommand, serveCommand, outboxCommand, auditCommand, tasksCommand, mcpCommand];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

export function mainHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `pincer ${version}: the tools, policy, gate and sandboxes of an AI agent

Usage: pincer <command> [flags]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Global flags:
  -h, --help       help for pincer or a command (pincer <command> --help)
  -v, --version    print the version

Config: --config F, else $PINCER_CONFIG, else ./pincer.config.json, else the
embedded default (bundled fs and shell tools on the local backend, the coding
profile, the current directory or --workspace as the workspace; /, the home
directory and its parents are refused unless --workspace names them).
Logs go to stderr; set PINCER_LOG=debug|info|warn|error to change the level.`;
}

/** `pincer mcp`: the operator's side of the MCP bridge (definition pins, OAuth sign-in). */
import { COMMON_OPTIONS, parseFlags } from '../args.js';
import { discoverConfig, loadDiscoveredConfig } from '../config-source.js';
import type { Command } from '../context.js';
import { usageError } from '../errors.js';
import type { PincerConfig } from '../../kernel/config/schema.js';
import { bridgeData } from '../mcp/bridge-data.js';
import { runLogin } from '../mcp/login.js';
import { acceptPins, listPins } from '../mcp/pins.js';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Sign in to MCP servers and review the tool definitions the bridge pinned',
  help: `Usage: pincer mcp <subcommand> [--config F] [--json]

  pins                         list the tool definitions the MCP bridge pinned
  pins accept SERVER [TOOL]    accept a changed definition (of one tool, or every
                               tool of SERVER): it is pinned afresh at its next use
  login SERVER [--no-browser]  sign in to an HTTP server configured with "oauth":
                               opens the authorization page, receives the answer on a
                               loopback address, and stores the tokens owner-only
                               where the bridge reads them

The bridge pins each tool's description and schemas the first time it sees them;
a server that later changes them gets the tool blocked (or each call asks for
approval, with mcp.pinning.onChange "approve") until you accept it here.

Options:
  -c, --config F    config file (else $PINCER_CONFIG, ./pincer.config.json)
      --no-browser  print the sign-in URL without opening a browser
      --json        machine-readable output`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('mcp', argv, { ...COMMON_OPTIONS, 'no-browser': { type: 'boolean' } });
    const [sub, ...rest] = positionals;
    const api = await ctx.kernelApi();
    const config = (await loadDiscoveredConfig(ctx, api, discoverConfig(ctx, values.config))) as PincerConfig;
    const data = bridgeData(config, ctx.env);
    const json = values.json === true;
    if (sub === 'pins' && rest.length === 0) return listPins(ctx, data, json);
    if (sub === 'pins' && rest[0] === 'accept' && (rest.length === 2 || rest.length === 3)) return acceptPins(ctx, data, rest[1], rest[2], json);
    if (sub === 'login' && rest.length === 1) return runLogin(ctx, data, rest[0], { openBrowser: values['no-browser'] !== true, json });
    throw usageError(sub ? `unknown or incomplete mcp subcommand: ${positionals.join(' ')}` : 'pincer mcp needs a subcommand: pins, pins accept, login', 'mcp');
  },
};

/** `pincer serve`: one agent's governed tool set as an MCP server (stdio, or HTTP on localhost). */
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom } from '../args.js';
import type { Command } from '../context.js';
import { usageError } from '../errors.js';

const SERVE_OPTIONS = { ...RUN_OPTIONS, http: { type: 'string' } } as const;

export const serveCommand: Command = {
  name: 'serve',
  summary: "Serve one agent's tool set as an MCP server (stdio or HTTP)",
  help: `Usage: pincer serve [run flags] [--http PORT]

Exposes the assembled, policy-filtered tool set of one run as an MCP server.
tools/list gives the tools with normalized schemas; tools/call runs through
the gate, hooks and sandbox; notifications/tools/list_changed is sent when
the tool set changes (plugin restart, list change, config reload).

Transport: stdio by default (stdout is the MCP channel, logs go to stderr);
--http PORT serves Streamable HTTP at http://127.0.0.1:PORT/mcp instead
(PORT 0 picks a free port; the URL is logged on stderr).

${RUN_FLAGS_HELP.replace(/\n\s+--json[^\n]*/, '')}
      --http PORT     Streamable HTTP on 127.0.0.1:PORT instead of stdio

MCP client config (Claude Desktop and others):
  { "mcpServers": { "pincer": { "command": "npx", "args": ["pincer", "serve"] } } }`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('serve', argv, SERVE_OPTIONS);
    expectPositionals('serve', positionals, 0, 0, 'no arguments');
    if (values.json) throw usageError("'pincer serve' speaks MCP on stdout; --json does not apply", 'serve');
    const port = values.http === undefined ? undefined : parsePort(values.http);
    // Loaded on demand: the MCP SDK is the heaviest import, and only serve needs it.
    const { startServe } = await import('../serve/start.js');
    return startServe(ctx, { run: runContextFrom(values), configFlag: values.config, port });
  },
};

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw usageError(`--http needs a port number 0-65535, got '${text}'`, 'serve');
  return port;
}

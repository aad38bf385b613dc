/** `pincer serve`: one agent's governed tool set as an MCP server (stdio, or HTTP on localhost). */
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom, runOpenOptions } from '../args.js';
import type { Command } from '../context.js';
import { usageError } from '../errors.js';
import { parseHttpSettings } from '../serve/http-flags.js';
import { readScript } from '../script-runner.js';

const SERVE_OPTIONS = {
  ...RUN_OPTIONS,
  http: { type: 'string' },
  socket: { type: 'string' },
  'token-file': { type: 'string' },
  'no-auth': { type: 'boolean' },
  'allow-origin': { type: 'string', multiple: true },
  'max-sessions': { type: 'string' },
  'idle-timeout': { type: 'string' },
  script: { type: 'string' },
} as const;

export const serveCommand: Command = {
  name: 'serve',
  summary: "Serve one agent's tool set as an MCP server (stdio or HTTP)",
  help: `Usage: pincer serve [run flags] [--http PORT | --socket PATH] [http flags]

Exposes the assembled, policy-filtered tool set of one run as an MCP server.
tools/list gives the tools with normalized schemas; tools/call runs through
the gate, hooks and sandbox; notifications/tools/list_changed is sent when
the tool set changes (plugin restart or failure, a plugin's list change).

Session: each MCP client gets its own session, agent:<id>:mcp:<uuid>, never
the agent's main one, so under sandbox mode non-main every client is
sandboxed and clients never share background runs. --session S puts every
client in session S (--session main: the agent's main session).

Transport: stdio by default (stdout is the MCP channel, logs go to stderr).
--http PORT serves Streamable HTTP at http://127.0.0.1:PORT/mcp (PORT 0
picks a free port), --socket PATH at /mcp on a Unix socket (mode 0600).
Both require a bearer token (Authorization: Bearer <token>), printed once on
stderr at startup unless --token-file keeps it in a file, and refuse any
browser Origin not allowed with --allow-origin.

${RUN_FLAGS_HELP.replace(/\n\s+--json[^\n]*/, '')}

Turns:
      --script FILE        run agent turns (sessions_spawn, sessions_send, cron
                           runs) with the scripted runner: each replays FILE's
                           steps, [{"tool":..,"params":{..}}], or the steps its
                           own message carries (docs/automations.md)

HTTP flags:
      --http PORT          Streamable HTTP on 127.0.0.1:PORT instead of stdio
      --socket PATH        Streamable HTTP on a Unix socket instead of stdio
      --token-file F       keep the bearer token in F (created 0600 when
                           missing, reused when present) instead of printing it
      --no-auth            require no token (loudly logged; Origin and Host
                           are still checked)
      --allow-origin O     a browser origin allowed to call (repeatable), e.g.
                           http://localhost:6274; pages of any other origin
                           are refused
      --max-sessions N     open sessions at most (default 32)
      --idle-timeout S     close a session idle for S seconds (default 1800)

MCP client config (Claude Desktop and others):
  { "mcpServers": { "pincer": { "command": "pincer", "args": ["serve", "--workspace", "/path/to/project"] } } }`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('serve', argv, SERVE_OPTIONS);
    expectPositionals('serve', positionals, 0, 0, 'no arguments');
    if (values.json) throw usageError("'pincer serve' speaks MCP on stdout; --json does not apply", 'serve');
    const http = parseHttpSettings(values);
    // Loaded on demand: the MCP SDK is the heaviest import, and only serve needs it.
    const { startServe } = await import('../serve/start.js');
    const script = values.script === undefined ? undefined : readScript(ctx, values.script, 'serve');
    return startServe(ctx, { run: runContextFrom(values), open: { ...runOpenOptions('serve', values), script }, http });
  },
};

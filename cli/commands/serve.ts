/** `pincer serve`: one agent's governed tool set as an MCP server (stdio, or HTTP on localhost). */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom } from '../args.js';
import { describeSource } from '../config-source.js';
import type { CliContext, Command } from '../context.js';
import { usageError } from '../errors.js';
import { describeRun } from '../format/tools-report.js';
import { openKernel } from '../kernel-session.js';
import { createStderrLogger } from '../logger.js';
import { serveHttp } from '../serve/http.js';
import { createMcpServer } from '../serve/mcp-server.js';
import { ToolBridge } from '../serve/tool-bridge.js';

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
    if (port === undefined) guardStdout();

    const logger = createStderrLogger(ctx, 'info');
    const run = runContextFrom(values);
    const { kernel, source } = await openKernel(ctx, { configFlag: values.config, logLevel: 'warn' });
    const bridge = new ToolBridge(kernel, run, logger);
    const options = { version: ctx.version, logger };

    let closeTransport: () => Promise<void>;
    const stopped = new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (port === undefined) {
        // The SDK's stdio transport does not watch for EOF; a client that closes our stdin is done.
        process.stdin.once('end', stop);
        process.stdin.once('close', stop);
      }
    });

    if (port === undefined) {
      const server = createMcpServer(bridge, options);
      await server.connect(new StdioServerTransport());
      closeTransport = () => server.close();
      logger.info(`pincer serve: ${bridge.toolSet.tools.length} tools for ${describeRun(run)} on stdio (config: ${describeSource(source)})`);
    } else {
      const endpoint = await serveHttp(bridge, port, options);
      closeTransport = () => endpoint.close();
      logger.info(`pincer serve: ${bridge.toolSet.tools.length} tools for ${describeRun(run)} at ${endpoint.url} (config: ${describeSource(source)})`);
    }

    await stopped;
    await shutdown(ctx, bridge, closeTransport);
    return 0;
  },
};

async function shutdown(ctx: CliContext, bridge: ToolBridge, closeTransport: () => Promise<void>): Promise<void> {
  bridge.close();
  await closeTransport().catch(() => undefined);
  // Stopping the kernel stops every plugin process group: nothing outlives `pincer serve`.
  await bridge.kernel.stop().catch((cause: Error) => ctx.stderr.write(`pincer: kernel stop failed: ${cause.message}\n`));
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw usageError(`--http needs a port number 0-65535, got '${text}'`, 'serve');
  return port;
}

/** Stdout is the MCP channel: any stray console.log from in-process code must not corrupt it. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

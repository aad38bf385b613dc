/**
 * The life of `pincer serve`: start the kernel, expose the bridge over stdio or HTTP, wait for the
 * client to go away (stdin EOF) or a signal, then close the transport and stop every plugin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { describeSource } from '../config-source.js';
import type { CliContext } from '../context.js';
import { describeRun } from '../format/tools-report.js';
import type { RunContext } from '../kernel.js';
import { openKernel } from '../kernel-session.js';
import { createStderrLogger } from '../logger.js';
import { serveHttp } from './http.js';
import { createMcpServer } from './mcp-server.js';
import { ToolBridge } from './tool-bridge.js';

export interface ServeOptions {
  run: RunContext;
  configFlag?: string;
  /** Streamable HTTP on 127.0.0.1:port; stdio when absent. */
  port?: number;
}

export async function startServe(ctx: CliContext, options: ServeOptions): Promise<number> {
  const stdio = options.port === undefined;
  if (stdio) guardStdout();
  const logger = createStderrLogger(ctx, 'info');
  const { kernel, source } = await openKernel(ctx, { configFlag: options.configFlag, logLevel: 'warn' });
  const bridge = new ToolBridge(kernel, options.run, logger);
  const serverOptions = { version: ctx.version, logger };

  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (stdio) {
      // The SDK's stdio transport does not watch for EOF; a client that closes our stdin is done.
      process.stdin.once('end', () => resolve('stdin closed'));
      process.stdin.once('close', () => resolve('stdin closed'));
    }
  });

  let closeTransport: () => Promise<void>;
  const count = bridge.toolSet.tools.length;
  const what = `${count} tool${count === 1 ? '' : 's'} for ${describeRun(options.run, bridge.toolSet)}`;
  if (stdio) {
    const server = createMcpServer(bridge, serverOptions);
    await server.connect(new StdioServerTransport());
    closeTransport = () => server.close();
    logger.info(`pincer serve: ${what} on stdio (config: ${describeSource(source)})`);
  } else {
    const endpoint = await serveHttp(bridge, options.port ?? 0, serverOptions);
    closeTransport = () => endpoint.close();
    logger.info(`pincer serve: ${what} at ${endpoint.url} (config: ${describeSource(source)})`);
  }

  const reason = await stopped;
  logger.info(`pincer serve: stopping (${reason})`);
  bridge.close();
  await closeTransport().catch(() => undefined);
  // Stopping the kernel stops every plugin process group: nothing outlives `pincer serve`.
  await kernel.stop().catch((cause: Error) => logger.error(`kernel stop failed: ${cause.message}`));
  // A paused stdin pipe still holds the event loop open after a signal; release it so we exit.
  if (stdio) process.stdin.destroy();
  return 0;
}

/** Stdout is the MCP channel: any stray console.log from in-process code must not corrupt it. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

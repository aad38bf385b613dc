/**
 * The life of `pincer serve`: start the kernel, check the run (agent, workspace), expose one MCP
 * server per client over stdio or HTTP, wait for the client to go away (stdin EOF) or a signal,
 * then close the transport and stop every plugin. Nothing is left running when startup fails.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { describeSource } from '../config-source.js';
import { err, type CliContext } from '../context.js';
import { describeSandbox } from '../format/tools-report.js';
import type { RunContext } from '../kernel.js';
import { openKernel, type KernelSession, type OpenOptions } from '../kernel-session.js';
import { createStderrLogger, type CliLogger } from '../logger.js';
import { ClientRuns, describeClientRun } from './client-runs.js';
import { serveHttp, type ClientServer } from './http.js';
import type { ListenTarget } from './http-listen.js';
import { generateToken, loadOrCreateTokenFile } from './http-token.js';
import { createMcpServer } from './mcp-server.js';
import { ToolBridge } from './tool-bridge.js';

export interface HttpSettings {
  listen: ListenTarget;
  /** Keep the token in this file (created 0600, reused) instead of printing it. */
  tokenFile?: string;
  noAuth: boolean;
  allowedOrigins: string[];
  maxSessions: number;
  idleMs: number;
}

export interface ServeOptions {
  run: RunContext;
  open: OpenOptions;
  /** Streamable HTTP (TCP or Unix socket); stdio when absent. */
  http?: HttpSettings;
}

export async function startServe(ctx: CliContext, options: ServeOptions): Promise<number> {
  if (!options.http) guardStdout();
  const stopped = stopSignal(!options.http);
  const logger = createStderrLogger(ctx, 'info');
  const session = await openKernel(ctx, { ...options.open, logLevel: 'warn' });
  let closeTransport: () => Promise<void>;
  try {
    // Skills first: a client's server carries the run's skill index from its first message.
    await session.kernel.skills?.refresh(options.run).catch((cause: Error) => logger.warn(`skills: ${cause.message}`));
    closeTransport = await expose(ctx, session, options, logger);
  } catch (cause) {
    await session.kernel.stop().catch(() => undefined);
    throw cause;
  }

  const reason = await stopped;
  logger.info(`pincer serve: stopping (${reason})`);
  await closeTransport().catch(() => undefined);
  // Stopping the kernel stops every plugin process group: nothing outlives `pincer serve`.
  await session.kernel.stop().catch((cause: Error) => logger.error(`kernel stop failed: ${cause.message}`));
  // A paused stdin pipe still holds the event loop open after a signal; release it so we exit.
  if (!options.http) process.stdin.destroy();
  return 0;
}

async function expose(ctx: CliContext, session: KernelSession, options: ServeOptions, logger: CliLogger): Promise<() => Promise<void>> {
  const runs = new ClientRuns(ctx, session, options.run);
  const serverOptions = { version: ctx.version, logger };
  const openClient = (run: RunContext): ClientServer & { bridge: ToolBridge } => {
    const bridge = new ToolBridge(session.kernel, run, logger);
    return { server: createMcpServer(bridge, serverOptions), runKey: bridge.toolSet.run?.sessionKey ?? run.sessionKey ?? 'main', bridge };
  };
  const config = `config ${describeSource(session.source)}`;

  if (!options.http) {
    const client = openClient(runs.next());
    await client.server.connect(new StdioServerTransport());
    const toolSet = client.bridge.toolSet;
    logger.info(`pincer serve: ${describeClientRun(toolSet, runs.describeSession(client.bridge.run, true), describeSandbox(toolSet.sandbox))} · ${config} · on stdio`);
    return () => client.server.close();
  }

  const http = options.http;
  const kept = http.tokenFile === undefined ? undefined : loadOrCreateTokenFile(http.tokenFile);
  const token = http.noAuth ? undefined : (kept?.token ?? generateToken());
  const endpoint = await serveHttp(() => openClient(runs.next()), { ...http, token, logger });
  // What a client would get, from a run like the ones clients get (a fresh per-client key decides the sandbox the same way).
  const sample = session.kernel.assembleTools(runs.next());
  logger.info(`pincer serve: ${describeClientRun(sample, runs.describeSession(options.run, false), describeSandbox(sample.sandbox))} · ${config} · at ${endpoint.url}`);
  // Written to stderr directly, whatever PINCER_LOG says: without these lines nobody can connect, or knows it is open.
  if (http.noAuth) err(ctx, ctx.errColors.red('WARNING: --no-auth: no bearer token is required. Any process on this machine that can reach the endpoint can run these tools.'));
  else if (kept) err(ctx, `Bearer token: ${kept.created ? 'created in' : 'read from'} ${http.tokenFile} (send it as "Authorization: Bearer <token>")`);
  else err(ctx, `Bearer token (shown once; use --token-file F to keep it in a file instead): Authorization: Bearer ${token}`);
  return () => endpoint.close();
}

function stopSignal(stdio: boolean): Promise<string> {
  return new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (stdio) {
      // The SDK's stdio transport does not watch for EOF; a client that closes our stdin is done.
      process.stdin.once('end', () => resolve('stdin closed'));
      process.stdin.once('close', () => resolve('stdin closed'));
    }
  });
}

/** Stdout is the MCP channel: any stray console.log from in-process code must not corrupt it. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * MCP servers as the operator configures them (`mcp` in pincer.config.json) and as the kernel
 * hands them to the MCP bridge plugin in its handshake settings: each server (a command run over
 * stdio, or a Streamable HTTP URL) with its deadlines and tool filter, and what to do when a
 * server changes a tool's definition. The kernel validates the config with these schemas; the
 * bridge parses its settings with them.
 * @since 1
 */
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

const Deadlines = {
  /** Idle deadline of one call, in ms; each progress report from the server restarts it. */
  timeoutMs: lazySchema(() => z.number().int().positive().max(86_400_000).default(60_000)),
  /** Per-tool idle deadlines (by the server's own tool name), overriding `timeoutMs`. */
  toolTimeoutsMs: lazySchema(() => z.record(z.string(), z.number().int().positive().max(86_400_000)).default({})),
  /** Hard cap of one call, however much progress the server reports. */
  maxTotalTimeoutMs: lazySchema(() => z.number().int().positive().max(86_400_000).default(600_000)),
  /** Connecting and the first tool listing, in ms. */
  connectTimeoutMs: lazySchema(() => z.number().int().positive().max(600_000).default(30_000)),
};

const Common = {
  ...Deadlines,
  /** The server runs calls in parallel safely; otherwise the model is told to run them one at a time. */
  supportsParallelToolCalls: lazySchema(() => z.boolean().default(false)),
  /** Only these tools of the server (its own names); utility tools included by their names. */
  includeTools: lazySchema(() => z.array(z.string().min(1)).optional()),
  excludeTools: lazySchema(() => z.array(z.string().min(1)).default([])),
};

/** Env var names: what a stdio server may inherit from the bridge's environment. */
const EnvName = lazySchema(() => z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'));

export const StdioServerSettings = lazySchema(() => z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Fixed variables for the server. */
  env: z.record(EnvName, z.string()).default({}),
  /** Variables copied from the bridge's environment (the kernel copies them from its own). */
  passEnv: z.array(EnvName).default([]),
  cwd: z.string().optional(),
  ...Common,
}));

export const HttpServerSettings = lazySchema(() => z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
  /** Send `Authorization: Bearer $<name>` (read from the bridge's environment). */
  bearerTokenEnv: EnvName.optional(),
  /** Use the OAuth tokens stored by `pincer mcp login <server>` (refreshed before they expire). */
  oauth: z.union([z.boolean(), z.strictObject({ scope: z.string().optional() })]).optional(),
  ...Common,
}));

export const ServerSettings = lazySchema(() => z.union([StdioServerSettings, HttpServerSettings]));
export type ServerSettings = z.output<typeof ServerSettings>;
export type StdioServerSettings = z.output<typeof StdioServerSettings>;
export type HttpServerSettings = z.output<typeof HttpServerSettings>;

/** The bridge plugin's settings. @since 1 */
export const BridgeSettings = lazySchema(() => z.object({
  servers: z.record(z.string().min(1), ServerSettings).default({}),
  /** Servers the kernel left out because the policy denies all their tools (reported, never started). */
  deniedServers: z.array(z.string()).default([]),
  /** Each server's safe name, computed by the kernel over every configured server (so denied ones keep theirs). */
  safeServerNames: z.record(z.string(), z.string()).default({}),
  pinning: z
    .strictObject({
      /** A tool whose description or schema changed: `block` its calls, or `approve` (each call asks the operator). */
      onChange: z.enum(['block', 'approve']).default('block'),
    })
    .default({ onChange: 'block' }),
  /** Most tools taken from one server (a flood beyond is dropped with a warning). */
  maxToolsPerServer: z.number().int().positive().max(10_000).default(500),
}));
export type BridgeSettings = z.output<typeof BridgeSettings>;


/** The operator's `mcp` block: the servers and the bridge-wide settings. @since 1 */
export const McpConfigSchema = lazySchema(() => z.strictObject({
  servers: z.record(z.string().trim().min(1).max(128), ServerSettings),
  pinning: BridgeSettings.shape.pinning.optional(),
  maxToolsPerServer: BridgeSettings.shape.maxToolsPerServer.optional(),
  /** The id of the plugin entry that runs the bridge (default `mcp-bridge`, added when not configured). */
  plugin: z.string().min(1).optional(),
}));
export type McpConfig = z.input<typeof McpConfigSchema>;

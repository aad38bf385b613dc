/**
 * What a tool may declare beside its name and schema, for clients that show or reason about
 * tools (the MCP tool metadata: a title, four behaviour hints, an output schema), for tool
 * search (whether the tool may be left out of a large run's listed definitions), and for
 * policy (the plugin id MCP-bridged tools answer to). Also the result blocks that MCP content
 * passes through as. All optional: a plugin that declares none of it is unchanged.
 */
import * as z from 'zod';
import { BUNDLE_MCP_PLUGIN_ID } from '../vocabulary/catalog.js';
import { lazySchema } from '../lazy-schema.js';

/** Hints about a tool's behaviour, as MCP defines them; advisory, never a security boundary. @since 1 */
export const ToolAnnotations = lazySchema(() => z.object({
  /** The tool does not change its environment. */
  readOnlyHint: z.boolean().optional(),
  /** When not read-only: it may destroy or overwrite (rather than only add). */
  destructiveHint: z.boolean().optional(),
  /** Calling it twice with the same arguments has no further effect. */
  idempotentHint: z.boolean().optional(),
  /** It reaches an open world (the network, commands), not a closed domain. */
  openWorldHint: z.boolean().optional(),
}));
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/** Fields a tool contribution may add. @since 1 */
export const ToolMetadataFields = {
  /** A human-readable title (the name stays the identifier). */
  title: lazySchema(() => z.string().max(256).optional()),
  annotations: lazySchema(() => ToolAnnotations.optional()),
  /** JSON Schema of the result's `structuredContent`; results with one must validate against it. */
  outputSchema: lazySchema(() => z.record(z.string(), z.unknown()).optional()),
  /** Tool search may leave this tool out of a large run's listed definitions (found through `tool_search`). */
  deferrable: lazySchema(() => z.boolean().optional()),
  /**
   * The plugin id policy lists address this tool by, instead of the serving plugin's. Only
   * `bundle-mcp` (tools bridged from MCP servers), so no plugin can pass its tools off as another's.
   */
  policyPluginId: lazySchema(() => z.literal(BUNDLE_MCP_PLUGIN_ID).optional()),
};

const Annotated = { annotations: lazySchema(() => z.looseObject({}).optional()), _meta: lazySchema(() => z.looseObject({}).optional()) };

/** Result blocks beyond text and image, passed through from MCP servers as MCP defines them. @since 1 */
export const ToolResultContentBlocks = [
  lazySchema(() => z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), ...Annotated })),
  lazySchema(() => z.object({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    ...Annotated,
  })),
  lazySchema(() => z.object({
    type: z.literal('resource'),
    resource: z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string(), _meta: z.looseObject({}).optional() }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string(), _meta: z.looseObject({}).optional() }),
    ]),
    ...Annotated,
  })),
] as const;

/**
 * Whether a deny list removes a whole MCP server before it is ever started (SPEC §2.1): the list
 * names `bundle-mcp` or `group:plugins`, or holds a pattern ending in `*` that matches the
 * server's tool prefix `<safe server name>__`. A pattern that names single tools (`docs__search`)
 * leaves the server running for its other tools.
 */
import { BUNDLE_MCP_PLUGIN_ID, PLUGINS_GROUP } from '../../protocol/vocabulary/index.js';
import { compileGlobs, matchesGlobs } from './glob.js';
import { MCP_TOOL_NAME_SEPARATOR } from './mcp-names.js';
import { normalizeToolList } from './normalize.js';

/** `(safeServerName) => true` when the deny list removes every tool of that server. */
export function createMcpServerToolDenyMatcher(denylist: readonly unknown[] | undefined): (safeServerName: string) => boolean {
  const entries = normalizeToolList(denylist ?? [], 'deny');
  if (entries.includes(BUNDLE_MCP_PLUGIN_ID) || entries.includes(PLUGINS_GROUP)) return () => true;
  const prefixPatterns = compileGlobs(entries.filter((entry) => entry.endsWith('*')));
  if (prefixPatterns.size === 0) return () => false;
  return (safeServerName) => matchesGlobs(`${safeServerName}${MCP_TOOL_NAME_SEPARATOR}`.toLowerCase(), prefixPatterns);
}

/**
 * Provider-safe names for MCP tools (SPEC §7): `<server>__<tool>`, only `[A-Za-z0-9_-]`, a letter
 * first, the server part at most 30 characters and the whole at most 64, collisions compared
 * case-insensitively and resolved with `-2`, `-3`, … inside the same budgets. Shared by the MCP
 * bridge (which names the tools) and the kernel (which matches deny lists against server prefixes).
 */

export const MCP_TOOL_NAME_SEPARATOR = '__';
export const MAX_MCP_SERVER_NAME_CHARS = 30;
export const MAX_MCP_TOOL_NAME_CHARS = 64;

/**
 * One name fragment: trimmed, each character outside `[A-Za-z0-9_-]` (a whole code point, so an
 * emoji is one `-`) replaced by `-`, `fallback` when empty, `<fallback>-<fragment>` when it does
 * not start with a letter, then cut to `max` characters (all ASCII by then, so no pair is split).
 */
export function sanitizeMcpNameFragment(raw: string, fallback: string, max?: number): string {
  const replaced = raw.trim().replace(/[^A-Za-z0-9_-]/gu, '-');
  let fragment = replaced === '' ? fallback : /^[A-Za-z]/.test(replaced) ? replaced : `${fallback}-${replaced}`;
  if (max !== undefined && fragment.length > max) fragment = fragment.slice(0, max);
  return fragment;
}

/** The first of `base`, `base-2`, `base-3`, … (each cut to `max`) for which `taken(candidate)` is false. */
function firstFree(base: string, max: number, taken: (candidate: string) => boolean): string {
  let candidate = base.slice(0, max);
  for (let n = 2; taken(candidate); n++) {
    const suffix = `-${n}`;
    candidate = `${base.slice(0, Math.max(1, max - suffix.length))}${suffix}`;
  }
  return candidate;
}

/** Safe names for servers, in the order given; each is unique case-insensitively among them. */
export function buildSafeMcpServerNames(serverNames: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const safe = new Map<string, string>();
  for (const name of serverNames) {
    const chosen = firstFree(sanitizeMcpNameFragment(name, 'mcp'), MAX_MCP_SERVER_NAME_CHARS, (c) => taken.has(c.toLowerCase()));
    taken.add(chosen.toLowerCase());
    safe.set(name, chosen);
  }
  return safe;
}

/** The safe name of one server taken alone (what a deny pattern on its prefix is matched against). */
export function safeMcpServerName(serverName: string): string {
  return sanitizeMcpNameFragment(serverName, 'mcp', MAX_MCP_SERVER_NAME_CHARS);
}

/**
 * `<server>__<tool>` for an already-safe server name, unique case-insensitively against
 * `reserved` (which the caller extends with the result). The tool part keeps to the 64 budget.
 */
export function buildSafeMcpToolName(safeServerName: string, toolName: string, reserved: ReadonlySet<string>): string {
  const budget = Math.max(1, MAX_MCP_TOOL_NAME_CHARS - safeServerName.length - MCP_TOOL_NAME_SEPARATOR.length);
  const tool = sanitizeMcpNameFragment(toolName, 'tool', budget);
  const full = (part: string) => `${safeServerName}${MCP_TOOL_NAME_SEPARATOR}${part}`;
  return full(firstFree(tool, budget, (part) => reserved.has(full(part).toLowerCase())));
}

/**
 * Tool names as MCP clients accept them: `[A-Za-z0-9_-]`, 1 to 64 characters. A kernel tool whose
 * name does not fit (a `.`, a long name) is listed under a mapped name (each other character
 * becomes `_`, cut to 64, `-2`, `-3` … on a collision) and called back under its own. Names that fit
 * are never changed, so a client's names are stable across restarts.
 */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX = 64;

export class McpToolNames {
  readonly #toKernel = new Map<string, string>();
  readonly #toMcp = new Map<string, string>();

  constructor(kernelNames: readonly string[]) {
    const taken = new Set(kernelNames.filter((name) => MCP_TOOL_NAME.test(name)).map((name) => name.toLowerCase()));
    for (const name of kernelNames) {
      let mapped = name;
      if (!MCP_TOOL_NAME.test(name)) {
        const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX) || 'tool';
        mapped = base;
        for (let n = 2; taken.has(mapped.toLowerCase()); n++) mapped = `${base.slice(0, MAX - String(n).length - 1)}-${n}`;
        taken.add(mapped.toLowerCase());
      }
      this.#toKernel.set(mapped, name);
      this.#toMcp.set(name, mapped);
    }
  }

  mcpName(kernelName: string): string {
    return this.#toMcp.get(kernelName) ?? kernelName;
  }

  /** The kernel's name for a name a client sent (unknown names pass as they are, for the explanation). */
  kernelName(mcpName: string): string {
    return this.#toKernel.get(mcpName) ?? mcpName;
  }

  /** Names that had to change, for the startup log. */
  renamed(): [string, string][] {
    return [...this.#toMcp].filter(([kernel, mcp]) => kernel !== mcp);
  }
}

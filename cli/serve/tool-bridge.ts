/**
 * The tool set of one `pincer serve` client's run, kept current. Assembly is pure and cheap, so
 * on every kernel `toolsChanged` (plugin restart or failure, list-changed) the bridge re-assembles
 * for the same run; when what the client would see changed, its MCP server is told to send
 * `notifications/tools/list_changed`. The kernel signals every plugin state change (a lazy plugin
 * starting fires several), so unchanged lists are not announced: clients re-list on each notice.
 */
import type { Kernel, RunContext, ToolSet } from '../kernel.js';
import type { CliLogger } from '../logger.js';

export class ToolBridge {
  #toolSet: ToolSet;
  #fingerprint: string;
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: () => void;

  constructor(
    readonly kernel: Kernel,
    readonly run: RunContext,
    private readonly logger: CliLogger,
  ) {
    this.#toolSet = kernel.assembleTools(run);
    this.#fingerprint = fingerprint(this.#toolSet);
    this.#unsubscribe = kernel.on('toolsChanged', () => this.refresh());
  }

  get toolSet(): ToolSet {
    return this.#toolSet;
  }

  /** Re-assembles; keeps the previous set if assembly throws, so one bad assembly cannot empty the server. */
  refresh(): void {
    const before = names(this.#toolSet);
    try {
      // Always swap: calls must route through the current assembly even when the list looks the same.
      this.#toolSet = this.kernel.assembleTools(this.run);
    } catch (cause) {
      this.logger.error(`re-assembly failed; keeping the previous tool set: ${(cause as Error).message}`);
      return;
    }
    const next = fingerprint(this.#toolSet);
    if (next === this.#fingerprint) return;
    this.#fingerprint = next;
    this.logger.info(`tool list changed: ${this.#toolSet.tools.length} tools`, diff(before, names(this.#toolSet)));
    for (const listener of this.#listeners) listener();
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#unsubscribe();
    this.#listeners.clear();
  }
}

/** What a client sees of the list: names, descriptions and schemas. */
function fingerprint(toolSet: ToolSet): string {
  return JSON.stringify(toolSet.tools.map((t) => [t.name, t.description, t.inputSchema]));
}

function names(toolSet: ToolSet): Set<string> {
  return new Set(toolSet.tools.map((t) => t.name));
}

function diff(before: Set<string>, after: Set<string>): Record<string, string[]> {
  return {
    added: [...after].filter((n) => !before.has(n)),
    removed: [...before].filter((n) => !after.has(n)),
  };
}

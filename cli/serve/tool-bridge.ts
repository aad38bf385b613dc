/**
 * The one tool set `pincer serve` exposes, kept current. Assembly is pure and cheap, so on every
 * kernel `toolsChanged` (plugin restart, list-changed, config reload) the bridge re-assembles for
 * the same run and tells each connected MCP session to send `notifications/tools/list_changed`.
 */
import type { Kernel, RunContext, ToolSet } from '../kernel.js';
import type { CliLogger } from '../logger.js';

export class ToolBridge {
  #toolSet: ToolSet;
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: () => void;

  constructor(
    readonly kernel: Kernel,
    readonly run: RunContext,
    private readonly logger: CliLogger,
  ) {
    this.#toolSet = kernel.assembleTools(run);
    this.#unsubscribe = kernel.on('toolsChanged', () => this.refresh());
  }

  get toolSet(): ToolSet {
    return this.#toolSet;
  }

  /** Re-assembles; keeps the previous set if assembly throws, so a bad reload cannot empty the server. */
  refresh(): void {
    try {
      const before = names(this.#toolSet);
      this.#toolSet = this.kernel.assembleTools(this.run);
      this.logger.info(`tool set re-assembled: ${this.#toolSet.tools.length} tools`, diff(before, names(this.#toolSet)));
    } catch (cause) {
      this.logger.error(`re-assembly failed; keeping the previous tool set: ${(cause as Error).message}`);
      return;
    }
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

function names(toolSet: ToolSet): Set<string> {
  return new Set(toolSet.tools.map((t) => t.name));
}

function diff(before: Set<string>, after: Set<string>): Record<string, string[]> {
  return {
    added: [...after].filter((n) => !before.has(n)),
    removed: [...before].filter((n) => !after.has(n)),
  };
}

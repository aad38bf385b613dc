/**
 * One plugin's contributions as the kernel keeps them: tools screened and claimed (a refused tool
 * is dropped and remembered with its reason), hook deadlines clamped to the operator's, and
 * runtime tool-list updates accepted only with the declared capability and coalesced.
 */
import type { Contributions, PluginCapabilities, ToolContribution } from '../../protocol/index.js';
import type { PluginTimeouts } from './config.js';
import { hookDeadline } from './deadlines.js';
import type { PluginLogSink } from './plugin-log.js';
import type { ToolOwners } from './tool-owners.js';
import { screenTools, type ToolRejection } from './tool-screen.js';

const EMPTY: Contributions = Object.freeze({ tools: [], sandboxBackends: [], skillSources: [], hooks: [], channels: [], nodes: [] });

/** Updates arriving within this window are applied once, as the last one. */
export const TOOL_UPDATE_WINDOW_MS = 250;

export class PluginTools {
  contributes: Contributions = EMPTY;
  rejected: readonly ToolRejection[] = [];
  capabilities: PluginCapabilities = {};
  private pendingUpdate: { tools: unknown } | undefined;
  private updateTimer: NodeJS.Timeout | undefined;
  private warnedNoCapability = false;

  constructor(
    private readonly pluginId: string,
    private readonly timeouts: PluginTimeouts,
    private readonly owners: ToolOwners,
    private readonly log: PluginLogSink,
    private readonly onChange: () => void,
  ) {}

  /** Contributions from a handshake or manifest: everything but the tools is already checked. */
  replace(contributes: Contributions, rawTools: unknown, capabilities: PluginCapabilities = {}): void {
    this.cancelUpdate();
    this.capabilities = capabilities;
    const hooks = contributes.hooks.map((h) => (h.timeoutMs === undefined ? h : { ...h, timeoutMs: hookDeadline(this.timeouts, h.name, h.timeoutMs, undefined) }));
    this.contributes = { ...contributes, hooks, tools: this.accept(rawTools) };
  }

  /** A `tools/listChanged` notification: ignored without the capability, else applied after the window. */
  update(rawTools: unknown): void {
    if (!this.capabilities.toolsListChanged) {
      if (!this.warnedNoCapability) this.log.kernel('warn', `ignored tools/listChanged: plugin "${this.pluginId}" did not declare capabilities.toolsListChanged in its handshake`);
      this.warnedNoCapability = true;
      return;
    }
    this.pendingUpdate = { tools: rawTools };
    this.updateTimer ??= setTimeout(() => this.applyUpdate(), TOOL_UPDATE_WINDOW_MS);
  }

  /** The plugin went away: forget an update not applied yet. */
  cancelUpdate(): void {
    clearTimeout(this.updateTimer);
    this.updateTimer = undefined;
    this.pendingUpdate = undefined;
    this.warnedNoCapability = false;
  }

  private applyUpdate(): void {
    this.updateTimer = undefined;
    const pending = this.pendingUpdate;
    this.pendingUpdate = undefined;
    if (!pending) return;
    const before = JSON.stringify(this.contributes.tools);
    this.contributes = { ...this.contributes, tools: this.accept(pending.tools) };
    if (JSON.stringify(this.contributes.tools) !== before) this.onChange();
  }

  private accept(rawTools: unknown): ToolContribution[] {
    const screened = screenTools(rawTools, { pluginId: this.pluginId, callMs: this.timeouts.callMs });
    const claimed = this.owners.claim(this.pluginId, screened.tools);
    const rejected = [...screened.rejected, ...claimed.rejected];
    const known = new Set(this.rejected.map((r) => r.reason));
    for (const r of rejected) if (!known.has(r.reason)) this.log.kernel(r.code === 'NAME_TAKEN' || r.code === 'CORE_TOOL_NOT_DESIGNATED' ? 'error' : 'warn', `refused a tool: ${r.reason}`);
    this.rejected = rejected;
    return claimed.tools;
  }
}

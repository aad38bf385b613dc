/**
 * Decides how each plugin starts, and builds its sandbox: confined under bubblewrap with what
 * it declared, unconfined (it declares nothing, its declaration asks for it under the
 * operator's settings, or bubblewrap is unavailable and the fallback allows it), or refused.
 * bubblewrap's absence is said once, at the first plugin that needed it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfinementGrants, PluginConfinement } from '../../protocol/v1/confinement.js';
import type { PluginConfig } from '../host/config.js';
import { KernelError } from '../host/errors.js';
import { findPathInsideRoots } from '../host/plugin-location.js';
import { bwrapArgs, within } from './bwrap-args.js';
import { probeBwrap, type BwrapStatus } from './bwrap-probe.js';
import { pluginCodeRoots } from './code-roots.js';
import { ConfinementConfigSchema, type ConfinementConfig, type ConfinementConfigInput } from './config.js';
import { bundledPluginId, declarationManifest, readDeclaredConfinement } from './declaration.js';
import { confinedEnv } from './env.js';
import { expandPaths, resolveConfinement, type PlaceholderValues } from './grants.js';
import { startPluginProxy, type PluginProxy, type ProxyDenial } from './proxy.js';
import { noSpawnFilter } from './seccomp.js';
import { holdProtectedPaths, type ProtectedMounts } from '../../sdk/protected-paths/placeholders.js';

/** What `pincer plugins` shows about a plugin's confinement. */
export interface ConfinementStatus {
  mode: 'confined' | 'unconfined' | 'refused';
  /** One line: what it runs with, or why it is not confined. */
  detail: string;
  /** Set when an operator should act (it runs unconfined although it asked not to). */
  warning?: string;
}

export type LaunchPlan =
  | { mode: 'unconfined'; status: ConfinementStatus }
  | {
      mode: 'confined';
      status: ConfinementStatus;
      bwrap: string;
      args: string[];
      env: Record<string, string>;
      seccomp?: Buffer;
      proxy?: PluginProxy;
      /** Removes the protected-path placeholders made for this launch (when the process is gone). */
      release: () => void;
    };

export interface ConfinerOptions {
  config?: ConfinementConfigInput;
  /** Every agent workspace (`${workspace}`). */
  workspaces: readonly string[];
  skillRoots?: readonly string[];
  /** A workspace's protected paths (workspace-relative): held read-only inside a plugin granted the workspace read-write. */
  protectedPaths?: (workspaceDir: string) => readonly string[];
  /** Directories agents can write: a declaration read from there is refused like plugin code. */
  workspaceRoots: readonly string[];
  stateDir: string;
  /** Logs a kernel-level line (the once-only unavailability notice). */
  log: (level: 'warn' | 'error', message: string) => void;
  /** A plugin tried to reach a destination it did not declare. */
  onDenied?: (pluginId: string, what: string) => void;
  /** The direct-channel socket directories, mounted into every confined plugin. */
  directChannel?: { mountsFor(pluginId: string): { root: string; own: string } | undefined };
}

/**
 * A read-write directory a setting names is created when missing, as the plugin would create
 * it: bubblewrap mounts only what exists, and inside the sandbox the plugin's mkdir would land
 * in its private /tmp (or fail), never on the host where the operator looks.
 */
function createSettingDirectories(grants: ConfinementGrants, values: PlaceholderValues): void {
  const named = grants.filesystem.filter((p) => p.access === 'rw' && p.path.startsWith('${settings.'));
  for (const { path: dir } of expandPaths({ ...grants, filesystem: named }, values)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // Not ours to create (permissions, a file there): the plugin meets the error itself.
    }
  }
}

function describeGrants(g: ConfinementGrants): string {
  const fs = g.filesystem.map((p) => `${p.path} ${p.access}`).join(', ') || 'no paths';
  const net = typeof g.network === 'string' ? `network ${g.network}` : `network ${g.network.hosts.join(' ')}`;
  return `${fs}; ${net}; ${g.spawn ? 'may spawn' : 'no spawn'}${g.env.length ? `; env ${g.env.join(' ')}` : ''}`;
}

export class Confiner {
  readonly config: ConfinementConfig;
  #toldUnavailable = false;
  #runDir: string | undefined;

  constructor(private readonly options: ConfinerOptions) {
    this.config = ConfinementConfigSchema.parse(options.config ?? {});
  }

  /** Probes bubblewrap (once per binary and process). */
  bwrap(): Promise<BwrapStatus> {
    return probeBwrap(this.config.bwrap);
  }

  async plan(plugin: PluginConfig, dataDir: string, startDir: string): Promise<LaunchPlan> {
    const bundled = bundledPluginId(plugin) !== undefined;
    if (plugin.dangerouslyUnconfined) {
      const warning = `DANGER: plugin "${plugin.id}" runs unconfined because its entry sets "dangerouslyUnconfined"`;
      return { mode: 'unconfined', status: { mode: 'unconfined', detail: 'dangerouslyUnconfined is set', warning } };
    }
    const manifest = declarationManifest(plugin);
    const inside = manifest ? findPathInsideRoots([manifest], this.options.workspaceRoots) : undefined;
    if (inside && !plugin.allowInsideWorkspace) {
      throw new KernelError('PLUGIN_LOCATION_REFUSED', `plugin "${plugin.id}" was not started: its manifest ${inside.path} lies inside ${inside.root}, where an agent could widen what it declares`, { pluginId: plugin.id });
    }
    const declared: PluginConfinement | undefined = readDeclaredConfinement(plugin);
    if (!declared) {
      if (this.config.requireDeclaration && !bundled) {
        throw new KernelError('CONFINEMENT_REFUSED', `plugin "${plugin.id}" declares no confinement and confinement.requireDeclaration is set; add a "confinement" block to its manifest, or set "dangerouslyUnconfined" on its entry`, { pluginId: plugin.id });
      }
      return { mode: 'unconfined', status: { mode: 'unconfined', detail: 'declares no confinement' } };
    }
    const resolved = resolveConfinement(declared, plugin.settings);
    if (resolved.kind === 'unconfinable') {
      // Stated, not hidden: requireDeclaration wants every third-party plugin confined.
      if (this.config.requireDeclaration && !bundled) {
        throw new KernelError('CONFINEMENT_REFUSED', `plugin "${plugin.id}" declares that it runs unconfined (${resolved.reason}) and confinement.requireDeclaration is set; set "dangerouslyUnconfined" on its entry to run it anyway`, { pluginId: plugin.id });
      }
      const detail = `unconfined by its declaration: ${resolved.reason}`;
      return { mode: 'unconfined', status: { mode: 'unconfined', detail, warning: bundled ? undefined : `plugin "${plugin.id}" runs ${detail}` } };
    }
    if (resolved.kind === 'unconfined') {
      const detail = `its declaration asks for the whole host when ${resolved.because}`;
      // A `when` of the plugin's own making (`notEquals` a value nobody sets) must not slip past
      // requireDeclaration: for a third-party plugin this is running unconfined, whoever chose it.
      if (this.config.requireDeclaration && !bundled) {
        throw new KernelError('CONFINEMENT_REFUSED', `plugin "${plugin.id}": ${detail}, and confinement.requireDeclaration is set; set "dangerouslyUnconfined" on its entry to run it anyway`, { pluginId: plugin.id });
      }
      // A bundled plugin's dangerous mode is the operator's setting: shown in `pincer plugins`, logged at info only.
      const warning = bundled ? undefined : `plugin "${plugin.id}" runs unconfined: ${detail}`;
      return { mode: 'unconfined', status: { mode: 'unconfined', detail, warning } };
    }
    const status = await this.bwrap();
    if (!status.available) return this.#unavailable(plugin, bundled, status.reason!);
    return this.#confine(plugin, resolved.grants, status.path!, dataDir, startDir, bundled);
  }

  #unavailable(plugin: PluginConfig, bundled: boolean, reason: string): LaunchPlan {
    const refuse = this.config.whenUnavailable === 'refuse' || (this.config.whenUnavailable === 'default' && !bundled);
    if (!this.#toldUnavailable) {
      this.#toldUnavailable = true;
      this.options.log('warn', `plugin confinement is unavailable: ${reason}. Plugins that declare confinement are ${this.config.whenUnavailable === 'default' ? 'refused (third-party) or started unconfined (bundled)' : this.config.whenUnavailable === 'refuse' ? 'refused' : 'started unconfined'} (confinement.whenUnavailable)`);
    }
    if (refuse) {
      throw new KernelError('CONFINEMENT_UNAVAILABLE', `plugin "${plugin.id}" declares confinement, but ${reason}; install bubblewrap, or set confinement.whenUnavailable to "unconfined" to run it without`, { pluginId: plugin.id });
    }
    const warning = `plugin "${plugin.id}" runs unconfined although it declares confinement: ${reason}`;
    return { mode: 'unconfined', status: { mode: 'unconfined', detail: 'bubblewrap unavailable', warning } };
  }

  async #confine(plugin: PluginConfig, grants: ConfinementGrants, bwrap: string, dataDir: string, startDir: string, bundled: boolean): Promise<LaunchPlan> {
    const values = { workspaces: this.options.workspaces, dataDir, skillRoots: this.options.skillRoots ?? [], settings: plugin.settings, cwd: startDir };
    const paths = expandPaths(grants, values);
    createSettingDirectories(grants, values);
    const held = this.#holdProtectedPaths(paths, bundled);
    const release = () => held.forEach((h) => h.release());
    try {
      const seccomp = grants.spawn ? undefined : noSpawnFilter();
      const proxied = grants.network === 'loopback' || typeof grants.network === 'object';
      const proxy = proxied
        ? await startPluginProxy(path.join(this.#ownRunDir(), `${plugin.id}.sock`), grants.network, (d: ProxyDenial) =>
            this.options.onDenied?.(plugin.id, `${d.how === 'CONNECT' ? 'connect to' : 'send a request to'} ${d.host}:${d.port}`),
          )
        : undefined;
      const args = bwrapArgs({
        grants,
        paths,
        codeRoots: pluginCodeRoots(plugin, startDir),
        protectedPaths: held.flatMap((h) => h.readOnly),
        protectedAncestors: held.flatMap((h) => h.ancestors),
        dataDir,
        stateDir: this.options.stateDir,
        cwd: startDir,
        proxySocket: proxy?.socketPath,
        directChannel: this.options.directChannel?.mountsFor(plugin.id),
        seccomp: seccomp !== undefined,
      });
      const warning = !grants.spawn && !seccomp ? `plugin "${plugin.id}": "no spawn" cannot be enforced on ${process.arch}` : undefined;
      const env = confinedEnv(plugin, grants, paths, dataDir);
      return { mode: 'confined', status: { mode: 'confined', detail: describeGrants(grants), warning }, bwrap, args, env, seccomp, proxy, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * The protected paths of each workspace that a read-write grant covers, held for the plugin's
   * lifetime: what exists is mounted read-only and the directories leading to it onto
   * themselves (a rename cannot move the protection away); what does not exist yet gets an
   * empty read-only placeholder, or a plugin granted the workspace could create `.git/hooks`.
   * Bundled plugins get no placeholders: the only one granted a workspace (the local backend)
   * refuses protected paths in its own code and would keep them for the kernel's lifetime.
   */
  #holdProtectedPaths(paths: ReadonlyArray<{ path: string; access: 'ro' | 'rw' }>, bundled: boolean): ProtectedMounts[] {
    const writable = paths.filter((p) => p.access === 'rw').map((p) => p.path);
    const covered = (target: string) => writable.some((root) => within(target, root));
    const held: ProtectedMounts[] = [];
    try {
      for (const ws of this.options.workspaces) {
        const rels = (this.options.protectedPaths?.(ws) ?? []).filter((rel) => covered(path.join(ws, rel)));
        if (rels.length > 0 && existsSync(ws)) held.push(holdProtectedPaths(ws, rels, { create: !bundled }));
      }
    } catch (error) {
      held.forEach((h) => h.release());
      throw error;
    }
    return held;
  }

  /** A kernel-private folder for proxy sockets (short: socket paths are limited to ~100 bytes). */
  #ownRunDir(): string {
    this.#runDir ??= mkdtempSync(path.join(os.tmpdir(), 'pincer-run-'));
    return this.#runDir;
  }

  /** Removes the socket folder (the host calls it when it stops). */
  dispose(): void {
    if (this.#runDir) rmSync(this.#runDir, { recursive: true, force: true });
    this.#runDir = undefined;
  }
}

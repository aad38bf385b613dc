/**
 * A real kernel running the MCP bridge plugin (a real child process) over real MCP servers:
 * the npm registry's reference servers and our fixture servers (crash, hang, flood, change).
 * Each kernel gets its own state directory, so pins and caches never leak between tests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scratchCwd } from '../../helpers/scratch-cwd.js';
import { createKernel, type Kernel, type KernelOptions, type PincerConfig, type ToolSet } from '../../../kernel/index.js';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const fixtureServer = (name: string): string => join(ROOT, 'dist/test/fixtures/mcp-servers', `${name}.js`);

/** A stdio server entry running a node script. */
export function nodeServer(script: string, args: string[] = [], extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [script, ...args], ...extra };
}

export interface BridgeKernel {
  kernel: Kernel;
  stateDir: string;
  logs: { level: string; source?: string; message: string }[];
  /** Assembles, waiting until `ready(toolSet)` holds (servers are discovered in the background). */
  tools(ready?: (toolSet: ToolSet) => boolean, timeoutMs?: number): Promise<ToolSet>;
  servers(): readonly { name: string; state: string; lastError?: string; detail?: string }[];
  stop(): Promise<void>;
}

export async function startBridgeKernel(config: PincerConfig, options: KernelOptions & { stateDir?: string } = {}): Promise<BridgeKernel> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pincer-mcp-state-'));
  const previous = process.env.PINCER_STATE_DIR;
  process.env.PINCER_STATE_DIR = stateDir;
  const logs: BridgeKernel['logs'] = [];
  const kernel = createKernel({ plugins: [], tools: { profile: 'coding' }, ...config }, { logger: (r) => void logs.push(r), cwd: scratchCwd(), ...options });
  if (previous === undefined) delete process.env.PINCER_STATE_DIR;
  else process.env.PINCER_STATE_DIR = previous;
  await kernel.start();
  const servers = (): ReturnType<BridgeKernel['servers']> => kernel.plugins().find((p) => p.id === 'mcp-bridge')?.components ?? [];
  return {
    kernel,
    stateDir,
    logs,
    async tools(ready = (t) => t.tools.length > 0, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const toolSet = kernel.assembleTools({});
        if (ready(toolSet)) return toolSet;
        if (Date.now() > until) throw new Error(`tools not ready: ${toolSet.tools.map((t) => t.name).join(', ')}; servers ${JSON.stringify(servers())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    servers,
    async stop() {
      await kernel.stop();
      if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The text of a result's content blocks. */
export function text(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? `[${c.type}]`).join('\n');
}

export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function fixtureLog(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

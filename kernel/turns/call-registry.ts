/**
 * Tool calls in flight, by the opaque token their context carries. A plugin's turn and session
 * requests name their call by this token, and the kernel answers from its own record of the
 * call's run: a plugin can neither invent a run nor borrow another plugin's.
 */
import { randomBytes } from 'node:crypto';
import type { RunInfo } from '../../protocol/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import { TurnError } from './errors.js';

export interface CallerRun extends RunInfo {
  /** Where a memory run may append (trigger `memory`). */
  memoryWritePath?: string;
}

/** The run's plugin (non-core) tools by serving plugin, as `RunInfo.pluginTools` names them. */
export function pluginToolsOf(tools: readonly { name: string; pluginId?: string; core?: boolean }[]): Record<string, string[]> {
  const byPlugin: Record<string, string[]> = {};
  for (const tool of tools) {
    if (tool.core || !tool.pluginId) continue;
    (byPlugin[tool.pluginId] ??= []).push(normalizeToolPolicyName(tool.name));
  }
  return byPlugin;
}

const TOKEN_BYTES = 18;
// Tokens are cut from one pool of CSPRNG bytes, refilled when spent: a randomBytes call per
// tool call cost more (several µs on a loaded machine) than the rest of the registry's work.
const POOL_BYTES = TOKEN_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** 18 fresh random bytes as base64url (24 characters), exactly as `randomBytes(18)` gave them. */
function newToken(): string {
  if (offset + TOKEN_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const token = pool.toString('base64url', offset, offset + TOKEN_BYTES);
  offset += TOKEN_BYTES;
  return token;
}

export class CallRegistry {
  readonly #calls = new Map<string, { pluginId: string; run: CallerRun }>();

  /** Registers a call; the returned `end` forgets it. */
  begin(pluginId: string, run: CallerRun): { token: string; end: () => void } {
    const token = newToken();
    this.#calls.set(token, { pluginId, run });
    return { token, end: () => this.#calls.delete(token) };
  }

  /** The run of `pluginId`'s call `token`, or a refusal naming why. */
  runOf(pluginId: string, token: string | undefined): CallerRun {
    const call = token === undefined ? undefined : this.#calls.get(token);
    if (!call || call.pluginId !== pluginId) {
      throw new TurnError('UNKNOWN_CALL', `plugin "${pluginId}" named a tool call that is not one of its calls in flight (a callToken is valid only while its call runs)`);
    }
    return call.run;
  }
}

/**
 * The sessions this kernel has run turns in, with a bounded history each: what
 * `sessions_list`, `sessions_history` and `session_status` read. In memory: a session's
 * durable record is its host's transcript; this is the kernel's view of its own turns.
 */
import { foldId } from '../policy/id-match.js';

export interface HistoryEntry {
  role: 'user' | 'assistant';
  text: string;
  at: number;
  runId: string;
  /** The session a sent message came from (agent-to-agent), labelled in the history. */
  source?: { agentId: string; sessionKey: string };
}

export interface SessionEntry {
  sessionKey: string;
  agentId: string;
  kind: string;
  depth: number;
  parentSessionKey?: string;
  label?: string;
  createdAt: number;
  updatedAt: number;
  running: number;
  history: HistoryEntry[];
}

const HISTORY_LIMIT = 200;
const SESSION_LIMIT = 10_000;

/** Whether a session key is one of the agent's own (`agent:<id>:...`). */
export function sessionBelongsTo(sessionKey: string, agentId: string): boolean {
  return sessionKey.trim().toLowerCase().startsWith(`agent:${foldId(agentId)}:`);
}

export class SessionDirectory {
  readonly #sessions = new Map<string, SessionEntry>();

  get(sessionKey: string): SessionEntry | undefined {
    return this.#sessions.get(sessionKey);
  }

  /** The session, created on first use with what the first turn says about it. */
  touch(init: Pick<SessionEntry, 'sessionKey' | 'agentId' | 'kind' | 'depth' | 'parentSessionKey' | 'label'>): SessionEntry {
    let entry = this.#sessions.get(init.sessionKey);
    if (!entry) {
      if (this.#sessions.size >= SESSION_LIMIT) this.#evictIdle();
      const now = Date.now();
      entry = { ...init, createdAt: now, updatedAt: now, running: 0, history: [] };
      this.#sessions.set(init.sessionKey, entry);
    }
    return entry;
  }

  append(sessionKey: string, item: HistoryEntry): void {
    const entry = this.#sessions.get(sessionKey);
    if (!entry) return;
    entry.history.push(item);
    if (entry.history.length > HISTORY_LIMIT) entry.history.splice(0, entry.history.length - HISTORY_LIMIT);
    entry.updatedAt = item.at;
  }

  /** The agent's sessions, most recently active first. */
  listFor(agentId: string, limit: number): SessionEntry[] {
    return [...this.#sessions.values()].filter((s) => foldId(s.agentId) === foldId(agentId)).sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  }

  #evictIdle(): void {
    const idle = [...this.#sessions.values()].filter((s) => s.running === 0).sort((a, b) => a.updatedAt - b.updatedAt)[0];
    if (idle) this.#sessions.delete(idle.sessionKey);
  }

  clear(): void {
    this.#sessions.clear();
  }
}

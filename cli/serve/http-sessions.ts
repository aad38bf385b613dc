/**
 * The live MCP sessions of `pincer serve --http`: at most `max` (counting those still
 * initializing), each closed after `idleMs` without a call in flight or a new request (an open
 * notification stream alone does not keep a session: its client may be long gone). A closed session's
 * transport closes its server, which unsubscribes from the kernel: nothing outlives it.
 */
import type { ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CliLogger } from '../logger.js';

export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  /** The kernel session key this client's calls run under. */
  readonly runKey: string;
  lastActive: number;
  /** Calls (POSTs) in flight: a session is idle only at zero. */
  active: number;
}

export class HttpSessions {
  readonly #live = new Map<string, HttpSession>();
  #opening = 0;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    readonly max: number,
    readonly idleMs: number,
    private readonly logger: CliLogger,
  ) {
    this.#sweeper = setInterval(() => this.sweep(Date.now()), Math.max(50, Math.min(idleMs, 60_000) / 2));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#live.size;
  }

  get(id: string): HttpSession | undefined {
    return this.#live.get(id);
  }

  /** Claims a slot for a session about to initialize; false when the cap is reached. */
  reserve(): boolean {
    if (this.#live.size + this.#opening >= this.max) return false;
    this.#opening += 1;
    return true;
  }

  /** Gives the slot back, whether or not the session was added meanwhile. */
  release(): void {
    this.#opening -= 1;
  }

  add(id: string, transport: StreamableHTTPServerTransport, runKey: string): void {
    this.#live.set(id, { transport, runKey, lastActive: Date.now(), active: 0 });
    this.logger.info(`client session ${runKey} opened (${this.#live.size} of at most ${this.max})`);
  }

  /** Called by the transport's onclose: the session is gone whatever closed it. */
  remove(id: string, why: string): void {
    const session = this.#live.get(id);
    if (!session) return;
    this.#live.delete(id);
    this.logger.info(`client session ${session.runKey} closed (${why}; ${this.#live.size} left)`);
  }

  /** Marks a request in flight until its response closes. */
  track(session: HttpSession, res: ServerResponse): void {
    session.active += 1;
    session.lastActive = Date.now();
    res.once('close', () => {
      session.active -= 1;
      session.lastActive = Date.now();
    });
  }

  sweep(now: number): void {
    for (const [id, session] of this.#live) {
      if (session.active > 0 || now - session.lastActive < this.idleMs) continue;
      this.remove(id, `idle for ${Math.round((now - session.lastActive) / 1000)} s`);
      void session.transport.close().catch(() => undefined);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#live.values()];
    this.#live.clear();
    await Promise.all(sessions.map((s) => s.transport.close().catch(() => undefined)));
  }
}

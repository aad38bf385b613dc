/**
 * The bridge against fixture MCP servers that crash, hang, flood and get killed: every failure is
 * an error result naming the server, the state is visible in the plugin status, calls recover,
 * cancellations reach the server, and no server process outlives the bridge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLog, fixtureServer, nodeServer, startBridgeKernel, text, waitFor, type BridgeKernel } from './helpers/bridge-kernel.js';

const dir = mkdtempSync(join(tmpdir(), 'pincer-mcp-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const logFile = () => join(dir, `log-${++n}.txt`);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let bk: BridgeKernel | undefined;
afterEach(async () => {
  await bk?.stop();
  bk = undefined;
});

describe('a server that crashes', () => {
  it('answers a call it crashed in with an error result naming the server and its last stderr, then reconnects', async () => {
    const log = logFile();
    bk = await startBridgeKernel({ mcp: { servers: { crashy: nodeServer(fixtureServer('crashes'), [], { env: { MCP_FIXTURE_LOG: log, MCP_FIXTURE_CRASH_ONCE_FILE: join(dir, `once-${n}`) } }) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'crashy__crash'));
    const crashed = await toolSet.execute('crashy__crash', {});
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toMatch(/MCP server "crashy"/);
    expect(text(crashed)).toContain('panic: the fixture server crashed on purpose');
    const status = await waitFor(() => bk!.servers().find((s) => s.lastError), 10_000, 'the crash in the status');
    expect(status.lastError).toContain('"crashy" closed');
    // The backoff reconnects on its own; the next call goes to a fresh process.
    await waitFor(() => bk!.servers().find((s) => s.state === 'ready'), 15_000, 'reconnected');
    const pong = await toolSet.execute('crashy__ping', {});
    expect(text(pong)).toMatch(/pong from \d+/);
    expect(fixtureLog(log).filter((l) => l.startsWith('started')).length).toBe(2);
  });

  it('reports a server that fails at start as failed or reconnecting, with what it wrote to stderr', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { broken: nodeServer(fixtureServer('crashes'), [], { env: { MCP_FIXTURE_CRASH_ON_START: '1' } }) } } });
    const status = await waitFor(() => bk!.servers().find((s) => s.lastError), 15_000, 'an error');
    expect(['reconnecting', 'failed']).toContain(status.state);
    expect(status.lastError).toContain('refuses to start');
    expect(bk.kernel.assembleTools({}).tools).toEqual([]);
  });
});

describe('a server that hangs', () => {
  beforeAll(() => undefined);

  it('cancels a call on the server when the caller aborts it', async () => {
    const log = logFile();
    bk = await startBridgeKernel({ mcp: { servers: { slow: nodeServer(fixtureServer('hangs'), [], { env: { MCP_FIXTURE_LOG: log } }) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'slow__hang'));
    const abort = new AbortController();
    const call = toolSet.execute('slow__hang', {}, { signal: abort.signal });
    await waitFor(() => fixtureLog(log).includes('hang started'), 10_000, 'the call to reach the server');
    abort.abort();
    await call.then(
      (result) => expect(result.isError).toBe(true),
      (error) => expect(String(error)).toMatch(/cancel/i),
    );
    await waitFor(() => fixtureLog(log).includes('hang cancelled'), 10_000, 'the server to see the cancellation');
  });

  it('ends a call at the per-tool deadline, and keeps one alive with progress up to the hard cap', async () => {
    bk = await startBridgeKernel({
      mcp: { servers: { slow: nodeServer(fixtureServer('hangs'), [], { timeoutMs: 30_000, toolTimeoutsMs: { hang: 800, progress: 800 }, maxTotalTimeoutMs: 2_500 }) } },
    });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'slow__hang'));
    const hung = await toolSet.execute('slow__hang', {});
    expect(text(hung)).toMatch(/did not answer within 800 ms/);
    const kept = await toolSet.execute('slow__progress', { steps: 4, intervalMs: 300 });
    expect(text(kept)).toContain('done after 4 steps');
    const capped = await toolSet.execute('slow__progress', { steps: 20, intervalMs: 300 });
    expect(capped.isError).toBe(true);
    expect(text(capped)).toMatch(/2500 ms cap/);
  });

  it('leaves no server process, and nothing the server started, when the bridge is killed', async () => {
    const log = logFile();
    bk = await startBridgeKernel({ mcp: { servers: { slow: nodeServer(fixtureServer('hangs'), [], { env: { MCP_FIXTURE_LOG: log } }) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'slow__spawn_child'));
    await toolSet.execute('slow__spawn_child', {});
    const server = Number(fixtureLog(log).find((l) => l.startsWith('started'))!.split(' ')[1]);
    const child = Number(fixtureLog(log).find((l) => l.startsWith('child'))!.split(' ')[1]);
    expect([alive(server), alive(child)]).toEqual([true, true]);
    // SIGKILL the bridge alone (not its group): only the lifeline can take the server down now.
    const bridge = bk.kernel.plugins().find((p) => p.id === 'mcp-bridge')!.pid!;
    process.kill(bridge, 'SIGKILL');
    await waitFor(() => !alive(server) && !alive(child), 10_000, 'the server and its child to die');
  });
});

describe('a server that floods', () => {
  it('coalesces a storm of list_changed notifications into a few refreshes', async () => {
    const log = logFile();
    bk = await startBridgeKernel({ mcp: { servers: { noisy: nodeServer(fixtureServer('floods'), [], { env: { MCP_FIXTURE_LOG: log } }) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'noisy__list_changed_storm'));
    await toolSet.execute('noisy__list_changed_storm', {});
    await new Promise((r) => setTimeout(r, 1_500));
    const lists = fixtureLog(log).filter((l) => l.startsWith('list')).length;
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(lists).toBeLessThan(20);
  });

  it('survives garbage and a 20 MB line on stdout and log storms, and still answers', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { noisy: nodeServer(fixtureServer('floods')) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'noisy__garbage'));
    expect(text(await toolSet.execute('noisy__garbage', {}))).toContain('still here');
    expect(text(await toolSet.execute('noisy__log_storm', {}))).toContain('logged');
    expect(bk.servers()[0].state).toBe('ready');
  });

  it('cuts a description and a title past the protocol limits instead of losing the tool', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { noisy: nodeServer(fixtureServer('floods')) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'noisy__verbose'));
    const verbose = toolSet.tools.find((x) => x.name === 'noisy__verbose')!;
    expect(verbose.description.length).toBeLessThanOrEqual(16 * 1024);
    expect(verbose.description).toMatch(/^Long description\. .*cut by the MCP bridge\]$/s);
    expect(verbose.title).toHaveLength(256);
    expect(text(await toolSet.execute('noisy__verbose', {}))).toContain('verbose ran');
  });

  it('takes at most maxToolsPerServer tools from a server that lists thousands', async () => {
    // Tool search off: every tool the bridge took is listed, so the count is what the bridge contributed.
    const tools = { profile: 'coding' as const, toolSearch: { enabled: false } };
    bk = await startBridgeKernel({ tools, mcp: { maxToolsPerServer: 100, servers: { many: nodeServer(fixtureServer('floods'), [], { env: { MCP_FIXTURE_TOOLS: '3000' } }) } } });
    const toolSet = await bk.tools((t) => t.tools.length >= 100);
    expect(toolSet.tools.length).toBe(100);
    expect(bk.logs.some((l) => l.message.includes('maxToolsPerServer'))).toBe(true);
  });
});

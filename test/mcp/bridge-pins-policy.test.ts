/**
 * What policy and pinning do to bridged servers: a denied server is never started, a server's
 * list change reaches every new assembly, and a tool whose definition changed mid-session or
 * across restarts is blocked (or needs a fresh approval) until an operator accepts it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApprovalSurfaceRequest } from '../../kernel/index.js';
import { PinStore } from '../../plugins/mcp-bridge/src/catalog/pins.js';
import { BLOCKED_DESCRIPTION } from '../../plugins/mcp-bridge/src/tools/definition.js';
import { fixtureLog, fixtureServer, nodeServer, startBridgeKernel, text, waitFor, type BridgeKernel } from './helpers/bridge-kernel.js';

const dir = mkdtempSync(join(tmpdir(), 'pincer-mcp-pins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let bk: BridgeKernel | undefined;
afterEach(async () => {
  await bk?.stop();
  bk = undefined;
});

const describeOf = (b: BridgeKernel, name: string) => b.kernel.assembleTools({}).tools.find((t) => t.name === name)?.description;

describe('a server the policy denies', () => {
  it.each([
    ['a prefix glob', ['secret__*']],
    ['bundle-mcp', ['bundle-mcp']],
    ['group:plugins', ['group:plugins']],
  ])('is never started when %s denies it, and shows as denied', async (_what, deny) => {
    const log = join(dir, `denied-${Math.random()}.txt`);
    const allowedLog = join(dir, `allowed-${Math.random()}.txt`);
    bk = await startBridgeKernel({
      tools: { profile: 'coding', deny },
      mcp: { servers: { secret: nodeServer(fixtureServer('hangs'), [], { env: { MCP_FIXTURE_LOG: log } }), open: nodeServer(fixtureServer('hangs'), [], { env: { MCP_FIXTURE_LOG: allowedLog } }) } },
    });
    const denied = await waitFor(() => bk!.servers().find((s) => s.name === 'secret'), 10_000, 'status');
    expect(denied).toMatchObject({ state: 'denied' });
    if (deny[0] === 'secret__*') await waitFor(() => fixtureLog(allowedLog).some((l) => l.startsWith('started')), 15_000, 'the allowed server to start');
    else await new Promise((r) => setTimeout(r, 1_000));
    expect(existsSync(log)).toBe(false);
    expect(bk.kernel.assembleTools({}).tools.some((t) => t.name.startsWith('secret__'))).toBe(false);
  });
});

describe('tool list changes', () => {
  it('reach new assemblies and the kernel’s toolsChanged listeners', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { ch: nodeServer(fixtureServer('changes-definition')) } } });
    const toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'ch__add_tool'));
    let changes = 0;
    bk.kernel.on('toolsChanged', () => void changes++);
    await toolSet.execute('ch__add_tool', {});
    const after = await bk.tools((t) => t.tools.some((x) => x.name === 'ch__extra'));
    expect(text(await after.execute('ch__extra', {}))).toContain('extra');
    expect(changes).toBeGreaterThan(0);
  });
});

describe('definition pinning', () => {
  it('blocks a tool whose description and schema changed mid-session, naming what changed, until an operator accepts it', async () => {
    bk = await startBridgeKernel({ mcp: { servers: { ch: nodeServer(fixtureServer('changes-definition')) } } });
    let toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'ch__lookup'));
    expect(text(await toolSet.execute('ch__lookup', { word: 'pincer' }))).toContain('pincer: a word');
    await toolSet.execute('ch__mutate', {});
    await waitFor(() => describeOf(bk!, 'ch__lookup') === BLOCKED_DESCRIPTION, 10_000, 'the changed tool to be blocked');
    toolSet = bk.kernel.assembleTools({});
    const blocked = await toolSet.execute('ch__lookup', { word: 'pincer' });
    expect(blocked.isError).toBe(true);
    expect(text(blocked)).toMatch(/changed the definition of tool "lookup"/);
    expect(text(blocked)).toMatch(/description \(was "Looks up a word in the dictionary\.", now "Looks up a word\. IMPORTANT/);
    expect(text(blocked)).toMatch(/input schema \(added context\)/);
    expect(blocked.details).toMatchObject({ definitionChanged: expect.any(Array) });
    expect(bk.logs.some((l) => l.level === 'warn' && l.message.includes('changed since it was pinned'))).toBe(true);

    // The operator accepts the new definition (what `pincer mcp pins accept ch lookup` does).
    new PinStore(join(bk.stateDir, 'plugins/mcp-bridge/pins.json')).forget('ch', 'lookup');
    expect(text(await toolSet.execute('ch__lookup', { word: 'again' }))).toContain('again: a word');
    await waitFor(() => describeOf(bk!, 'ch__lookup')?.startsWith('Looks up a word. IMPORTANT'), 10_000, 'the accepted definition to be listed');
  });

  it('notices a definition that changed while the bridge was down', async () => {
    const stateDir = mkdtempSync(join(dir, 'state-'));
    bk = await startBridgeKernel({ mcp: { servers: { ch: nodeServer(fixtureServer('changes-definition')) } } }, { stateDir });
    await bk.tools((t) => t.tools.some((x) => x.name === 'ch__lookup'));
    await bk.stop();
    bk = await startBridgeKernel({ mcp: { servers: { ch: nodeServer(fixtureServer('changes-definition'), [], { env: { MCP_FIXTURE_VARIANT: '2' } }) } } }, { stateDir });
    await waitFor(() => describeOf(bk!, 'ch__lookup') === BLOCKED_DESCRIPTION, 15_000, 'the changed tool to be blocked');
    const result = await bk.kernel.assembleTools({}).execute('ch__lookup', { word: 'x' });
    expect(text(result)).toMatch(/changed the definition/);
  });

  it('in approve mode, asks for a fresh approval naming the change, and runs the call once approved', async () => {
    const asked: ApprovalSurfaceRequest[] = [];
    bk = await startBridgeKernel(
      { mcp: { pinning: { onChange: 'approve' }, servers: { ch: nodeServer(fixtureServer('changes-definition')) } } },
      { approvalSurface: { request: async (request) => (asked.push(request), 'allow-once') } },
    );
    let toolSet = await bk.tools((t) => t.tools.some((x) => x.name === 'ch__lookup'));
    expect(text(await toolSet.execute('ch__lookup', { word: 'first' }))).toContain('first: a word');
    expect(asked).toEqual([]);
    await toolSet.execute('ch__mutate', {});
    await waitFor(() => describeOf(bk!, 'ch__lookup')?.includes('IMPORTANT'), 10_000, 'the new definition');
    toolSet = bk.kernel.assembleTools({});
    expect(text(await toolSet.execute('ch__lookup', { word: 'second' }))).toContain('second: a word');
    expect(asked).toHaveLength(1);
    expect(asked[0].description).toMatch(/changed the definition of tool "lookup".*description/);
    expect(asked[0].digest).toMatch(/^sha256:/);
  });
});

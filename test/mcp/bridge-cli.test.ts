/** The operator's view of the MCP bridge: `pincer plugins` lists each server, `pincer mcp pins` the pins. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, pincer } from '../cli/helpers/built-cli.js';
import { PinStore } from '../../plugins/mcp-bridge/src/catalog/pins.js';
import { fixtureServer } from './helpers/bridge-kernel.js';

beforeAll(() => ensureBuilt());
const dir = mkdtempSync(join(tmpdir(), 'pincer-mcp-cli-'));
const state = join(dir, 'state');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'pincer.config.json');
writeFileSync(
  config,
  JSON.stringify({
    tools: { profile: 'coding', deny: ['secret__*'] },
    mcp: { servers: { open: { command: process.execPath, args: [fixtureServer('hangs')] }, secret: { command: process.execPath, args: [fixtureServer('hangs')] } } },
  }),
);
const env = { PINCER_STATE_DIR: state };

describe('pincer plugins with MCP servers', () => {
  it('shows each server under the bridge, the denied one as denied', async () => {
    const run = await pincer(['plugins', '--config', config], { env });
    expect(run.stdout).toMatch(/mcp-bridge\s+ready/);
    expect(run.stdout).toMatch(/server secret\s+denied/);
    expect(run.stdout).toMatch(/server open\s+(idle|connecting|ready)/);
    const json = JSON.parse((await pincer(['plugins', '--config', config, '--json'], { env })).stdout);
    const bridge = json.plugins.find((p: { id: string }) => p.id === 'mcp-bridge');
    expect(bridge.components.map((c: { name: string }) => c.name).sort()).toEqual(['open', 'secret']);
  });
});

describe('pincer mcp pins', () => {
  it('lists the pinned definitions and accepts a changed one by dropping its pin', async () => {
    const store = new PinStore(join(state, 'plugins/mcp-bridge/pins.json'));
    store.forget('open', 'hang'); // the bridge of the test above may have pinned it, when it connected in time
    store.check('open', { name: 'hang', description: 'Never answers.', inputSchema: { type: 'object' } });
    // What the bridge pinned of its own (timing decides whether it did) must outlive the accept.
    const { hang: _accepted, ...others } = store.list().open!;
    const listed = await pincer(['mcp', 'pins', '--config', config], { env });
    expect(listed.stdout).toMatch(/open\s+hang\s+\S+\s+Never answers\./);
    const accepted = await pincer(['mcp', 'pins', 'accept', 'open', 'hang', '--config', config], { env });
    expect(accepted.stdout).toContain('1 pin dropped');
    const after = new PinStore(join(state, 'plugins/mcp-bridge/pins.json')).list();
    expect(after.open?.hang).toBeUndefined();
    expect(after.open ?? {}).toEqual(others);
    const unknown = await pincer(['mcp', 'pins', 'accept', 'nope', '--config', config], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server "nope"');
  });
});

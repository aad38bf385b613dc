import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../kernel/index.js';
import { journalFiles } from '../../sdk/journal/index.js';
import { FAST, errorCode, fixtureModule, jsonLines, pluginModule, scratchDir, startKernel, textOf } from './helpers.js';

const scratch = scratchDir();
const nodeLog = path.join(scratch.dir, 'node.log');
const notificationsDir = path.join(scratch.dir, 'notifications');
const received = () => (existsSync(nodeLog) ? readFileSync(nodeLog, 'utf8').split('\n').filter(Boolean) : []);

afterAll(() => scratch.cleanup());

describe('the nodes tool over the local node', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({
      plugins: [{ id: 'nodes-local', module: pluginModule('nodes-local'), settings: { notificationsDir }, timeouts: FAST }],
      tools: { profile: 'full' },
    });
  });
  afterAll(() => kernel.stop());

  it('lists the paired node and reads its status from this machine', async () => {
    const toolSet = kernel.assembleTools({});
    const listed = await toolSet.execute('nodes', { action: 'status' });
    expect(JSON.parse(textOf(listed)).nodes).toEqual([expect.objectContaining({ id: 'local', platform: process.platform })]);
    const status = await toolSet.execute('nodes', { action: 'device_status' });
    expect(JSON.parse(textOf(status))).toMatchObject({ platform: process.platform, memory: { totalBytes: expect.any(Number) } });
  });

  it('writes a notification to its outbox journal, once per call', async () => {
    const toolSet = kernel.assembleTools({ sessionKey: 'agent:main:ops' });
    const first = await toolSet.execute('nodes', { action: 'notify', title: 'Backup', body: 'finished at 03:00' }, { toolCallId: 'n-1' });
    expect(textOf(first)).toBe('Notified node "local".');
    await toolSet.execute('nodes', { action: 'notify', title: 'Backup', body: 'finished at 03:00' }, { toolCallId: 'n-1' });
    const records = journalFiles(notificationsDir, 'outbox').flatMap(jsonLines);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ title: 'Backup', message: 'finished at 03:00', source: { sessionKey: 'agent:main:ops' } });
  });

  it('has no camera or screen: a media action names the commands the node does offer', async () => {
    const result = await kernel.assembleTools({}).execute('nodes', { action: 'screen_snapshot' });
    expect(errorCode(result)).toBe('NODE_COMMAND_UNSUPPORTED');
    expect(textOf(result)).toContain('device.status');
  });
});

describe('the generic invoke is fenced', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({
      plugins: [{ id: 'recording-node', module: fixtureModule('recording-node'), settings: { log: nodeLog }, timeouts: { ...FAST, callMs: 3_000 } }],
      tools: { profile: 'full' },
    });
  });
  afterAll(() => kernel.stop());

  const invoke = (invokeCommand: string, extra: Record<string, unknown> = {}) => kernel.assembleTools({}).execute('nodes', { action: 'invoke', invokeCommand, ...extra });

  const NO_SHELL = 'no way yet to run a shell command on a node';
  const NO_FILE = 'no file-transfer tool for nodes yet';
  it.each([
    ['system.run', 'SHELL_COMMAND_REFUSED', NO_SHELL, undefined],
    ['system.run.prepare', 'SHELL_COMMAND_REFUSED', NO_SHELL, undefined],
    ['SYSTEM.RunAs', 'SHELL_COMMAND_REFUSED', NO_SHELL, undefined],
    ['camera.snap', 'MEDIA_COMMAND_REFUSED', 'Use action="camera_snap"', 'camera_snap'],
    ['screen.record', 'MEDIA_COMMAND_REFUSED', 'Use action="screen_record"', 'screen_record'],
    ['file.fetch', 'FILE_COMMAND_REFUSED', NO_FILE, undefined],
    ['dir.list', 'FILE_COMMAND_REFUSED', NO_FILE, undefined],
  ])('refuses %s with %s before the node sees it, naming only a path that exists', async (command, code, hint, use) => {
    const before = received().length;
    const result = await invoke(command, { invokeParamsJson: '{"command":"id"}' });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe(code);
    expect(textOf(result)).toContain(hint);
    // The reference's targets (exec with host=node, the file-transfer tools) do not exist here.
    expect(textOf(result)).not.toMatch(/use the exec tool|host=node|file_fetch|dir_list|dir_fetch|file_write/i);
    expect((result.details as Record<string, unknown>).use).toBe(use);
    if (use) expect(kernel.assembleTools({}).tools.find((tool) => tool.name === 'nodes')?.inputSchema).toMatchObject({ properties: { action: { enum: expect.arrayContaining([use]) } } });
    expect(received()).toHaveLength(before);
  });

  it('runs a declared command and returns its answer', async () => {
    const result = await invoke('device.status');
    expect(JSON.parse(textOf(result))).toEqual({ battery: 0.5 });
    expect(received().at(-1)).toBe('device.status');
  });

  it('returns media only through the dedicated action, as one image block', async () => {
    const result = await kernel.assembleTools({}).execute('nodes', { action: 'camera_snap' });
    expect(result.isError).toBeFalsy();
    expect(result.content.find((block) => block.type === 'image')).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('refuses a media payload or a flood from a command the node calls generic', async () => {
    expect(errorCode(await invoke('media.leak'))).toBe('MEDIA_COMMAND_REFUSED');
    expect(errorCode(await invoke('big.answer'))).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses oversized parameters before the node sees them', async () => {
    const before = received().length;
    const result = await invoke('device.status', { invokeParamsJson: JSON.stringify({ blob: 'z'.repeat(100_000) }) });
    expect(errorCode(result)).toBe('PARAMS_TOO_LARGE');
    expect(received()).toHaveLength(before);
  });

  it('refuses invalid invokeParamsJson and commands the node does not declare', async () => {
    expect(textOf(await invoke('device.status', { invokeParamsJson: '{oops' }))).toContain('invokeParamsJson must be valid JSON');
    const unknown = await invoke('teleport.now');
    expect(errorCode(unknown)).toBe('NODE_COMMAND_UNSUPPORTED');
  });

  it('reports a device that drops mid-command as NODE_DISCONNECTED', async () => {
    const result = await invoke('remote.op');
    expect(errorCode(result)).toBe('NODE_DISCONNECTED');
    expect(textOf(result)).toContain('may have partly run');
  });

  it('reports a node plugin that dies mid-invoke as NODE_DISCONNECTED, naming the node and the command', async () => {
    const result = await invoke('slow.op');
    expect(errorCode(result)).toBe('NODE_DISCONNECTED');
    expect(textOf(result)).toContain('node "rec" disconnected while running "slow.op"');
    expect(result.details).toMatchObject({ node: 'rec', command: 'slow.op', cause: 'PLUGIN_CRASHED' });
  });
});

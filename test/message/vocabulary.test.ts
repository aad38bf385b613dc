import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_MESSAGE_ACTION_NAMES, ChannelContribution } from '../../protocol/index.js';
import { FAST, fixtureModule, scratchDir, startKernel } from './helpers.js';

describe('the closed message-action vocabulary at the plugin boundary', () => {
  const scratch = scratchDir();

  it('refuses at the handshake a channel plugin that declares an unknown action, naming the plugin and the action', async () => {
    const kernel = await startKernel({ plugins: [{ id: 'rogue-channels', module: fixtureModule('unknown-action-channel'), timeouts: FAST }] });
    try {
      const [status] = kernel.plugins();
      expect(status.state).toBe('failed');
      expect(status.lastError?.code).toBe('HANDSHAKE_FAILED');
      expect(status.lastError?.message).toContain('plugin "rogue-channels"');
      // (the host may print the refusal as JSON, escaping the quotes)
      expect(status.lastError?.message).toMatch(/unknown message action \\?"teleport\\?"/);
      // Refused, not half-working: neither its "send" nor any message tool is offered.
      expect(kernel.assembleTools().tools.map((tool) => tool.name)).not.toContain('message');
      expect(status.restarts).toBe(0);
    } finally {
      await kernel.stop();
    }
  });

  it('refuses the same declaration in a lazy plugin\'s static manifest before anything starts', async () => {
    const manifest = path.join(scratch.dir, 'pincer-plugin.json');
    writeFileSync(manifest, JSON.stringify({ id: 'lazy-rogue', version: '1.0.0', protocolVersion: 1, contributes: { channels: [{ id: 'rogue', actions: ['react', 'fly'] }] } }));
    const kernel = await startKernel({ plugins: [{ id: 'lazy-rogue', module: fixtureModule('unknown-action-channel'), manifest, lazy: true, timeouts: FAST }] });
    try {
      const [status] = kernel.plugins();
      expect(status).toMatchObject({ state: 'failed', lastError: { code: 'INVALID_MANIFEST' } });
      expect(status.lastError?.message).toContain('plugin "lazy-rogue"');
      expect(status.lastError?.message).toMatch(/unknown message action \\?"fly\\?"/);
      expect(status.pid).toBeUndefined();
    } finally {
      await kernel.stop();
      scratch.cleanup();
    }
  });

  it('accepts exactly the vocabulary, rejects duplicates, and cannot be extended at runtime', () => {
    expect(ChannelContribution.safeParse({ id: 'all', actions: [...CHANNEL_MESSAGE_ACTION_NAMES] }).success).toBe(true);
    const twice = ChannelContribution.safeParse({ id: 'dup', actions: ['send', 'send'] });
    expect(twice.success).toBe(false);
    expect(JSON.stringify(twice.error?.issues)).toContain('declared twice');
    expect(ChannelContribution.safeParse({ id: 'none', actions: [] }).success).toBe(false);
    expect(() => (CHANNEL_MESSAGE_ACTION_NAMES as string[]).push('teleport')).toThrow(TypeError);
    expect(CHANNEL_MESSAGE_ACTION_NAMES).not.toContain('teleport');
  });
});

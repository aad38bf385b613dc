import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../plugins/sandbox-ssh/src/host-key.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { makeWorkspace } from './fixtures.js';
import { HAS_SSH, SSH_HOST_PUB, sshSettings, tempDir } from './services.js';
import { workspaceAttackTests, workspaceOutputOrderTests, type OpenedForTest } from './workspace-contract.js';

let seq = 0;
const session = () => `ssh-test:${process.pid}:${++seq}`;

describe.skipIf(!HAS_SSH)('ssh sandbox backend (real sshd)', () => {
  let opened: OpenedForTest & { ws: SshWorkspace };
  beforeAll(async () => {
    const hostDir = makeWorkspace();
    opened = { hostDir, ws: await SshWorkspace.open(sshSettings(), { sessionKey: session(), agentId: 'main', workspaceDir: hostDir, workspaceAccess: 'rw' }) };
  });
  afterAll(async () => { await opened?.ws.close(); });

  describe('attacks', () => workspaceAttackTests(() => opened, 500));
  describe('output order', () => workspaceOutputOrderTests(() => opened));

  it('never silently accepts an unknown host key', async () => {
    const empty = join(tempDir('kh'), 'known_hosts');
    writeFileSync(empty, '');
    await expect(SshWorkspace.open(sshSettings({ knownHostsPaths: [empty] }), { sessionKey: session(), agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' }))
      .rejects.toMatchObject({ code: 'HOST_KEY_REJECTED', message: expect.stringContaining('SHA256:') });
  });

  it('accepts a pinned fingerprint and rejects a wrong one', async () => {
    const blob = Buffer.from(readFileSync(SSH_HOST_PUB, 'utf8').split(/\s+/)[1], 'base64');
    const ok = await SshWorkspace.open(sshSettings({ knownHostsPaths: [], hostKey: fingerprintOf(blob) }), { sessionKey: session(), agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' });
    expect((await ok.exec('echo pinned')).stdout).toBe('pinned\n');
    await ok.close();
    await expect(SshWorkspace.open(sshSettings({ knownHostsPaths: [], hostKey: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), { sessionKey: session(), agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' }))
      .rejects.toMatchObject({ code: 'HOST_KEY_REJECTED' });
  });

  it('reports a key the server does not accept as AUTH_FAILED', async () => {
    const dir = tempDir('key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'id')]);
    await expect(SshWorkspace.open(sshSettings({ privateKeyPath: join(dir, 'id') }), { sessionKey: session(), agentId: 'main', workspaceDir: makeWorkspace(), workspaceAccess: 'rw' }))
      .rejects.toMatchObject({ code: 'AUTH_FAILED' });
  });

  it('reconnects after the connection drops', async () => {
    const { ws } = opened;
    ws.connection.close();
    expect((await ws.exec('echo again')).stdout).toBe('again\n');
  });

  it('hands a running command\'s output to the exec listener as it comes, the same output as the result', async () => {
    const heard: { text: string; at: number }[] = [];
    const result = await opened.ws.exec('echo first; sleep 0.5; echo second', {}, undefined, (output) => {
      for (const s of output) if (s.stream === 'stdout') heard.push({ text: s.text, at: Date.now() });
    });
    expect(heard[0]).toMatchObject({ text: 'first\n' });
    expect(heard[0]!.at).toBeLessThan(Date.now() - 300);
    expect(heard.map((h) => h.text).join('')).toBe(result.stdout);
  });

  it('syncs the remote copy back, but never the read-only skills', async () => {
    const hostDir = makeWorkspace();
    const ws = await SshWorkspace.open(sshSettings({ syncBack: 'on-close' }), { sessionKey: session(), agentId: 'main', workspaceDir: hostDir, workspaceAccess: 'rw' });
    await ws.write('made-remotely.txt', 'synced');
    await ws.exec('echo tampered > skills/demo/SKILL.md');
    await ws.close();
    expect(readFileSync(join(hostDir, 'made-remotely.txt'), 'utf8')).toBe('synced');
    expect(readFileSync(join(hostDir, 'skills', 'demo', 'SKILL.md'), 'utf8')).toContain('Do things.');
  });
});

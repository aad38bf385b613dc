import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAccess } from '../../plugins/sandbox-ssh/src/plugin.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { HAS_SSH, sshSettings, tempDir } from './services.js';
import { codeOf, openSsh, removeRoot, smallWorkspace, sshRoot } from './ssh-fixtures.js';

const ROOT = sshRoot('access');

function agentWorkspace(): string {
  const dir = tempDir('ssh-agent');
  writeFileSync(join(dir, 'notes.md'), 'agent notes\n');
  return dir;
}

describe('ssh workspace access: what a session resolves', () => {
  const prepare = (config?: Record<string, unknown>, readOnly?: boolean) => ({ session: 's', backendId: 'ssh', workspaceDir: '/w', readOnly, config });
  it('is none unless the kernel or the plugin settings say otherwise, as on docker', () => {
    expect(resolveAccess(prepare(), {})).toBe('none');
    expect(resolveAccess(prepare({ sandbox: {} }), {})).toBe('none');
    expect(resolveAccess(prepare({ sandbox: { workspaceAccess: 'rw' } }), {})).toBe('rw');
    expect(resolveAccess(prepare({ sandbox: { workspaceAccess: 'rw' } }), { workspaceAccess: 'none' })).toBe('rw');
    expect(resolveAccess(prepare(undefined), { workspaceAccess: 'ro' })).toBe('ro');
    expect(resolveAccess(prepare({ sandbox: { workspaceAccess: 'rw' } }, true), {})).toBe('ro');
  });
});

describe.skipIf(!HAS_SSH)('ssh workspace access holds on the real sshd', () => {
  afterAll(() => removeRoot(ROOT));

  it('defaults a library session to none', async () => {
    const ws = await SshWorkspace.open(sshSettings({ remoteRoot: ROOT }), { sessionKey: 'default-access', agentId: 'main', workspaceDir: smallWorkspace() }, { dataDir: tempDir('ssh-data') });
    try {
      expect(ws.access).toBe('none');
      expect(await codeOf(ws.write('x.txt', 'x'))).toBe('READ_ONLY_MOUNT');
    } finally {
      await ws.close();
    }
  });

  for (const access of ['none', 'ro'] as const) {
    it(`${access}: file tools cannot write, nothing a command changes reaches the host, and the next session starts from the host again`, async () => {
      const host = smallWorkspace();
      const agent = agentWorkspace();
      const dataDir = tempDir('ssh-data');
      const ws = await openSsh(ROOT, host, { access, agentWorkspaceDir: agent, dataDir, settings: { syncBack: 'on-close' } });
      try {
        expect(await codeOf(ws.write('hello.txt', 'overwritten'))).toBe('READ_ONLY_MOUNT');
        expect(await codeOf(ws.write('new.txt', 'x'))).toBe('READ_ONLY_MOUNT');
        expect(await codeOf(ws.mkdir('dir'))).toBe('READ_ONLY_MOUNT');
        expect(await codeOf(ws.remove('hello.txt'))).toBe('READ_ONLY_MOUNT');
        expect(await codeOf(ws.rename('hello.txt', 'moved.txt'))).toBe('READ_ONLY_MOUNT');
        if (access === 'none') {
          expect(await codeOf(ws.read('/agent/notes.md'))).toBe('PATH_OUTSIDE_MOUNT');
        } else {
          expect((await ws.read('/agent/notes.md')).content).toBe('agent notes\n');
          expect(await codeOf(ws.write('/agent/notes.md', 'rewritten'))).toBe('READ_ONLY_MOUNT');
        }
        // A command runs as the ssh user and can write the copy; none of it may come back.
        const r = await ws.exec('echo by-command > hello.txt && echo made > made.txt && rm src/a.ts && echo $?');
        expect(r.stdout).toBe('0\n');
        expect((await ws.read('made.txt')).content).toBe('made\n');
      } finally {
        expect(await ws.close()).toBeUndefined(); // no sync back for a read-only session
      }
      expect(readFileSync(join(host, 'hello.txt'), 'utf8')).toBe('hello world\n');
      expect(existsSync(join(host, 'made.txt'))).toBe(false);
      expect(existsSync(join(host, 'src', 'a.ts'))).toBe(true);
      const next = await openSsh(ROOT, host, { access, agentWorkspaceDir: agent, dataDir });
      try {
        expect((await next.read('hello.txt')).content).toBe('hello world\n');
        expect(await codeOf(next.read('made.txt'))).toBe('NOT_FOUND');
        expect((await next.read('src/a.ts')).content).toBe('export const a = 1;\n');
      } finally {
        await next.close();
      }
    });
  }

  it('rw, for contrast: file tools write, /agent is writable and the changes come back', async () => {
    const host = smallWorkspace();
    const agent = agentWorkspace();
    const ws = await openSsh(ROOT, host, { access: 'rw', agentWorkspaceDir: agent, settings: { syncBack: 'on-close' } });
    try {
      await ws.write('hello.txt', 'rewritten');
      await ws.write('/agent/notes.md', 'agent rewrote');
    } finally {
      await ws.close();
    }
    expect(readFileSync(join(host, 'hello.txt'), 'utf8')).toBe('rewritten');
    expect(readFileSync(join(agent, 'notes.md'), 'utf8')).toBe('agent rewrote');
  });
});

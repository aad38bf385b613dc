import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SshConnection } from '../../plugins/sandbox-ssh/src/connection.js';
import { fingerprintOf } from '../../plugins/sandbox-ssh/src/host-key.js';
import { SshSettingsSchema } from '../../plugins/sandbox-ssh/src/settings.js';
import { HAS_SSH, SSH_HOST, SSH_HOST_PUB, SSH_PORT, knownHostsFile, sshSettings, tempDir } from './services.js';
import { openSsh, removeRoot, smallWorkspace, sshRoot } from './ssh-fixtures.js';

const ROOT = sshRoot('trust');
const NOBODY = 65534;
const COPY_NAME = /^[a-z0-9._-]+-(rw|ro)-[0-9a-f]{16}$/;

/** The sshd's host key line, as known_hosts would hold it. */
const hostKeyLine = () => readFileSync(SSH_HOST_PUB, 'utf8').trim();

describe.skipIf(!HAS_SSH)('ssh trust: remote copies, host keys and the shared connection (real sshd)', () => {
  afterAll(() => removeRoot(ROOT));

  it('keeps copies owner-only under random names in an owner-only root, and tightens a loose root of ours', async () => {
    const root = `${ROOT}-loose`;
    mkdirSync(root, { recursive: true });
    chmodSync(root, 0o777);
    const a = await openSsh(root, smallWorkspace());
    const b = await openSsh(root, smallWorkspace());
    try {
      expect(statSync(root).mode & 0o777).toBe(0o700);
      const [copyA, copyB] = [a, b].map((ws) => ws.copies[0]!.copy.target.copyDir);
      expect(copyA).not.toBe(copyB);
      for (const copy of [copyA!, copyB!]) {
        expect(copy.split('/').at(-1)).toMatch(COPY_NAME);
        expect(statSync(copy).mode & 0o777).toBe(0o700);
        expect(readFileSync(join(copy, 'meta'), 'utf8').split('\n')[0]).toMatch(/^[0-9a-f]{16}$/);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      removeRoot(root);
    }
  });

  it('refuses a copies root that belongs to another user', async () => {
    const root = `${ROOT}-foreign`;
    mkdirSync(root, { recursive: true, mode: 0o700 });
    chownSync(root, NOBODY, NOBODY);
    try {
      await expect(openSsh(root, smallWorkspace())).rejects.toMatchObject({ code: 'SECURITY_VIOLATION', message: expect.stringContaining(`belongs to uid ${NOBODY}`) });
    } finally {
      removeRoot(root);
    }
  });

  it('refuses a copies root that is a symbolic link', async () => {
    const target = tempDir('ssh-elsewhere');
    const root = `${ROOT}-link`;
    symlinkSync(target, root);
    try {
      await expect(openSsh(root, smallWorkspace())).rejects.toMatchObject({ code: 'SECURITY_VIOLATION', message: expect.stringContaining('symbolic link') });
    } finally {
      removeRoot(root);
    }
  });

  it('never reuses a copy directory that another user took over: it makes a new one', async () => {
    const host = smallWorkspace();
    const dataDir = tempDir('ssh-data');
    const first = await openSsh(ROOT, host, { dataDir });
    const taken = first.copies[0]!.copy.target.copyDir;
    await first.close();
    chownSync(taken, NOBODY, NOBODY);
    const second = await openSsh(ROOT, host, { dataDir });
    try {
      expect(second.copies[0]!.copy.target.copyDir).not.toBe(taken);
      expect(second.copies[0]!.copy.reused).toBe(false);
      expect(statSync(taken).uid).toBe(NOBODY); // left alone
    } finally {
      await second.close();
    }
  });

  it('never accepts a host key marked @revoked, even when it is also listed or pinned', async () => {
    const knownHosts = join(tempDir('kh'), 'known_hosts');
    writeFileSync(knownHosts, `[${SSH_HOST}]:${SSH_PORT} ${hostKeyLine()}\n@revoked * ${hostKeyLine()}\n`);
    await expect(openSsh(ROOT, smallWorkspace(), { settings: { knownHostsPaths: [knownHosts] } }))
      .rejects.toMatchObject({ code: 'HOST_KEY_REJECTED', message: expect.stringContaining('@revoked') });
    const blob = Buffer.from(hostKeyLine().split(/\s+/)[1]!, 'base64');
    await expect(openSsh(ROOT, smallWorkspace(), { settings: { knownHostsPaths: [knownHosts], hostKey: fingerprintOf(blob) } }))
      .rejects.toMatchObject({ code: 'HOST_KEY_REJECTED' });
  });

  it('shares one connection between the sessions on a host', async () => {
    const settings = { knownHostsPaths: [knownHostsFile()] }; // one config: one identity
    const a = await openSsh(ROOT, smallWorkspace(), { settings });
    const b = await openSsh(ROOT, smallWorkspace(), { settings, access: 'ro' });
    try {
      expect(a.connection).toBe(b.connection);
      // The server sees one client: the same source port in both sessions' SSH_CONNECTION.
      const [fromA, fromB] = await Promise.all([a.exec('echo "$SSH_CONNECTION"'), b.exec('echo "$SSH_CONNECTION"')]);
      expect(fromA.stdout.split(' ')[1]).toBe(fromB.stdout.split(' ')[1]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('sizes its channel pool from the server: past OpenSSH MaxSessions (10) calls queue instead of failing', async () => {
    const connection = new SshConnection(SshSettingsSchema.parse(sshSettings()));
    try {
      const run = async () => {
        const { channel } = await connection.exec('sleep 1; echo done');
        let out = '';
        channel.on('data', (d: Buffer) => { out += d; });
        channel.end();
        await new Promise((r) => channel.once('close', r));
        return out.trim();
      };
      const results = await Promise.all(Array.from({ length: 14 }, run));
      expect(results).toEqual(Array(14).fill('done'));
      expect(connection.channelLimit).toBe(10);
    } finally {
      connection.close();
    }
  });
});

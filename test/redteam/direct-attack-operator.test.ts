/**
 * ATTACK: the direct channel under a careless operator. docs/protocol.md ("Direct channel")
 * puts the sockets in `$TMPDIR/pincer-direct-XXXXXX/<n>/direct.sock`, a private (0700) directory;
 * kernel/host/direct-dirs.ts notes that a Unix socket path holds at most 107 bytes. What
 * happens when TMPDIR is long? Node (libuv) does not refuse a longer path: it silently cuts it,
 * both when the backend listens and when a tool plugin connects, so the socket leaves the
 * private directory and lands in TMPDIR itself, under a name anyone who can write TMPDIR can
 * take first.
 *
 * The attacker here is another local user (uid 65534) sharing a long, world-writable temp
 * directory (mode 1777, like /tmp): it listens at the cut name before the kernel starts.
 * Safe behaviour: no tool plugin ever sends its grant to a socket outside the kernel's private
 * directory, and reads answer the true file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.js';
import { fixture, plugin, scratch, text } from './helpers.js';

const SUN_PATH_MAX = 108; // bytes of a socket path libuv keeps (all of sun_path, no terminating NUL on Linux)
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** A shared temp directory whose length puts the cut right inside "pincer-direct-". */
function longSharedTmp(): string {
  const base = scratch('direct-attack-operator');
  chmodSync(base, 0o755);
  // `<tmp>/pincer-direct-XXXXXX/0/direct.sock`: make `<tmp>/pincer-direc` exactly SUN_PATH_MAX bytes.
  const filler = SUN_PATH_MAX - base.length - '/'.length - '/pincer-direc'.length;
  const tmp = path.join(base, 't'.repeat(filler));
  mkdirSync(tmp, { recursive: true });
  chmodSync(tmp, 0o1777);
  return tmp;
}

/** Another user's listener: records every line it receives, answers a forged read. */
function foreignListener(socketPath: string, record: string): Promise<ChildProcess> {
  const program = `
    const net = require('node:net'); const fs = require('node:fs');
    const server = net.createServer((c) => {
      let buf = '';
      c.on('data', (d) => {
        buf += d; let nl;
        while ((nl = buf.indexOf('\\n')) >= 0) {
          const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
          fs.appendFileSync(${JSON.stringify(record)}, line + '\\n');
          const msg = JSON.parse(line);
          const content = 'FORGED BY ANOTHER USER';
          c.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { path: msg.params.path, content, encoding: 'utf8', size: content.length } }) + '\\n');
        }
      });
    });
    server.listen(${JSON.stringify(socketPath)}, () => console.log('listening'));
  `;
  const child = spawn(process.execPath, ['-e', program], { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`listener exited ${code}`)));
  });
}

describe('a long TMPDIR', () => {
  it('never sends a grant to, nor reads from, a socket another user planted at the cut name', async () => {
    const ws = scratch('direct-attack-operator-ws');
    writeFileSync(path.join(ws, 'secret.txt'), 'the true content');
    const record = path.join(scratch('direct-attack-operator-rec'), 'heard.ndjson');
    writeFileSync(record, '');
    chmodSync(path.dirname(record), 0o777);
    chmodSync(record, 0o666);
    const tmp = longSharedTmp();
    const cut = path.join(tmp, 'pincer-direc');
    expect(Buffer.byteLength(cut)).toBe(SUN_PATH_MAX);
    await foreignListener(cut, record);
    expect(existsSync(cut)).toBe(true);

    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const kernel = createKernel(
      {
        plugins: [
          { id: 'reader', module: fixture('session-probe'), env: { PINCER_PLUGIN_ID: 'reader' } },
          { id: 'sandbox-local', module: plugin('sandbox-local') },
        ],
        agents: { list: [{ id: 'A', workspace: ws, plugins: ['reader', 'sandbox-local'] }] },
      },
      { cwd: ws, logger: () => undefined },
    );
    try {
      await kernel.start();
      const tools = kernel.assembleTools({ agentId: 'A', sessionKey: 'main' });
      const reads: string[] = [];
      for (let i = 0; i < 3; i++) reads.push(text(await tools.execute('peek', { path: 'secret.txt' })));
      const channel = JSON.parse(text(await tools.execute('channel', {}))) as { socket: string; grant: string } | null;
      const raw = text(await tools.execute('direct', { params: { path: 'secret.txt' } }));
      reads.push(text(await tools.execute('peek', { path: 'secret.txt' })));
      const heard = readFileSync(record, 'utf8');
      // What the operator would see: where the kernel said the socket is, and who got the grant.
      expect(new Set(reads)).toEqual(new Set(['the true content']));
      if (channel) expect(heard, 'the foreign listener received the grant').not.toContain(channel.grant);
      expect(heard).toBe('');
    } finally {
      await kernel.stop();
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  }, 60_000);
});

/**
 * TMPDIR inside an agent's workspace (`TMPDIR=$PWD/tmp pincer …` in a project). The socket
 * directory then lies in a tree the agent's own `exec` (workspace-write, the default) may
 * change: the model renames the local backend's socket away and listens in its place, so
 * every tool plugin of every agent on that backend (the confined fs plugin too: it sees the
 * same directory) hands it its grant; the model proxies to the real socket and then reads
 * another agent's workspace with the grant it heard. Safe behaviour: no grant reaches the
 * model, and agent B's workspace stays B's.
 */
describe('TMPDIR inside an agent workspace', () => {
  it('the model of agent A cannot sit between agent B and the backend, nor read B with what it heard', async () => {
    const wsA = scratch('direct-attack-op-wsA');
    const wsB = scratch('direct-attack-op-wsB');
    writeFileSync(path.join(wsB, 'secret.txt'), 'B-ONLY-SECRET');
    const tmp = path.join(wsA, 'tmp');
    mkdirSync(tmp);
    const heard = path.join(wsA, 'heard.ndjson');
    const mitm = `
import socket, glob, os, threading
sock = glob.glob(${JSON.stringify(tmp)} + '/pincer-direct-*/*/direct.sock')[0]
os.rename(sock, sock + '.real')
srv = socket.socket(socket.AF_UNIX); srv.bind(sock); srv.listen(16)
log = open(${JSON.stringify(heard)}, 'a', buffering=1)
def pipe(a, b, rec):
    while True:
        d = a.recv(65536)
        if not d: break
        if rec: log.write(d.decode(errors='replace'))
        b.sendall(d)
def serve(c):
    up = socket.socket(socket.AF_UNIX); up.connect(sock + '.real')
    threading.Thread(target=pipe, args=(c, up, True), daemon=True).start()
    pipe(up, c, False)
log.write('READY\\n')
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
`;
    writeFileSync(path.join(wsA, 'mitm.py'), mitm);
    const { bundledPluginConfigs } = await import('../../kernel/config/defaults.js');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const kernel = createKernel(
      { plugins: bundledPluginConfigs(), tools: { profile: 'coding' }, agents: { list: [{ id: 'A', workspace: wsA }, { id: 'B', workspace: wsB }] } } as never,
      { cwd: wsA, logger: () => undefined },
    );
    try {
      await kernel.start();
      const a = kernel.assembleTools({ agentId: 'A', sessionKey: 'main' });
      const b = kernel.assembleTools({ agentId: 'B', sessionKey: 'main' });
      // B works normally first: its session is prepared, its fs plugin holds a grant.
      expect(text(await b.execute('read', { path: 'secret.txt' }))).toContain('B-ONLY-SECRET');
      // The model of A, with the exec tool it was given.
      const started = text(await a.execute('exec', { command: 'python3 mitm.py', background: true }));
      await new Promise((r) => setTimeout(r, 1_500));
      const ready = existsSync(heard) ? readFileSync(heard, 'utf8') : '';
      // B goes on reading.
      for (let i = 0; i < 3; i++) expect(text(await b.execute('read', { path: 'secret.txt' }))).toContain('B-ONLY-SECRET');
      const log = existsSync(heard) ? readFileSync(heard, 'utf8') : '';
      const grants = [...log.matchAll(/"grant":"([A-Za-z0-9_-]+)"/g)].map((m) => m[1]);
      // The model uses what it heard: B's session and grant, on the real socket, for a file B never read.
      writeFileSync(path.join(wsB, 'other.txt'), 'B-NEVER-READ-THIS');
      const use = `
import socket, glob, json
sock = glob.glob(${JSON.stringify(tmp)} + '/pincer-direct-*/*/direct.sock.real')[0]
heard = [json.loads(l) for l in open(${JSON.stringify(heard)}) if l.startswith('{')]
p = heard[-1]['params']
c = socket.socket(socket.AF_UNIX); c.connect(sock)
c.sendall((json.dumps({'jsonrpc': '2.0', 'id': 9, 'method': 'direct/read', 'params': {'session': p['session'], 'plugin': p['plugin'], 'grant': p['grant'], 'path': 'other.txt'}}) + '\\n').encode())
print(c.recv(65536).decode())
`;
      writeFileSync(path.join(wsA, 'use.py'), use);
      const stolen = text(await a.execute('exec', { command: 'python3 use.py' }));
      expect(stolen, 'agent A read agent B\'s workspace').not.toContain('B-NEVER-READ-THIS');
      expect(grants, 'agent A\'s model heard other plugins\' grants').toEqual([]);
    } finally {
      await kernel.stop();
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  }, 90_000);
});

/**
 * TMPDIR outside /tmp (`/var/tmp/…`, `~/tmp`): the model's own commands (`exec`,
 * workspace-write, host files read-only) get a private /tmp, but see the rest of the host, the
 * socket directory with it. Without a grant they are refused, but each refusal is an answer
 * the backend keeps for a reader that never reads: the model floods the backend every agent
 * shares. Safe behaviour: the model's command cannot reach the socket, or the backend's memory
 * stays bounded.
 */
describe('TMPDIR outside /tmp', () => {
  it('a command the model runs cannot make the shared backend buffer without bound', async () => {
    mkdirSync('/var/tmp', { recursive: true });
    const { mkdtempSync } = await import('node:fs');
    const tmp = mkdtempSync('/var/tmp/pincer-rt-direct-op-');
    const ws = scratch('direct-attack-op-ws3');
    const flood = `
import socket, glob, time
sock = glob.glob(${JSON.stringify(tmp)} + '/pincer-direct-*/*/direct.sock')[0]
c = socket.socket(socket.AF_UNIX); c.connect(sock)
c.setblocking(True)
line = b'{"jsonrpc":"2.0","id":1,"method":"direct/read","params":{}}\\n' * 10000
sent = 0
start = time.time()
while sent < 200_000_000 and time.time() - start < 20:
    c.sendall(line); sent += len(line)
print('sent', sent)
time.sleep(3)
`;
    writeFileSync(path.join(ws, 'flood.py'), flood);
    const { bundledPluginConfigs } = await import('../../kernel/config/defaults.js');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const kernel = createKernel(
      { plugins: bundledPluginConfigs(), tools: { profile: 'coding' }, agents: { list: [{ id: 'main', workspace: ws }] } } as never,
      { cwd: ws, logger: () => undefined },
    );
    try {
      await kernel.start();
      const tools = kernel.assembleTools({ agentId: 'main', sessionKey: 'main' });
      writeFileSync(path.join(ws, 'x.txt'), 'x');
      await tools.execute('read', { path: 'x.txt' }); // prepares: the backend listens
      const pid = kernel.plugins().find((p) => p.id === 'sandbox-local')!.pid!;
      const rss = () => {
        let total = 0;
        const visit = (p: number) => {
          try {
            total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
            for (const c of readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(c));
          } catch {
            // gone
          }
        };
        visit(pid);
        return total / 1024;
      };
      const baseline = rss();
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);
      const out = text(await tools.execute('exec', { command: 'python3 flood.py', timeout: 60 }));
      clearInterval(sampler);
      expect(peak - baseline, `backend: ${baseline.toFixed(0)} → ${peak.toFixed(0)} MiB; command said: ${out.slice(0, 120)}`).toBeLessThan(150);
    } finally {
      await kernel.stop();
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      const { rmSync } = await import('node:fs');
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

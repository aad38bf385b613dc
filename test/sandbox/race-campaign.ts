import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { WORKSPACE_ERROR_CODES } from '../../protocol/v1/workspace-types.js';
import { makeWorkspace, type ContractBackend } from './file-contract.js';

const SECRET = 'SECRET-OUTSIDE';

/**
 * Code running in the sandbox (what a model with exec, or a second session, can start)
 * swaps `race/d` for a symlink to a directory outside every mount, and `race/d/f` for a
 * symlink to a file there, about every millisecond (each state lasts about as long as an
 * operation's check-to-use gap), and counts its rounds. A write that creates `race/d`
 * while it is swapped away is cleared so the swapping goes on. Python when the sandbox
 * has it (no fork per swap, so exact timing), else POSIX sh as fast as it forks.
 */
const PY_ATTACKER = `
import os, shutil, sys, time
out = sys.argv[1]
os.chdir('race')
n = 0
while not os.path.exists('../race-stop'):
    for a, b, link in (('d', 'd.real', out), ('d/f', 'd/f.real', out + '/secret')):
        if os.path.lexists(b):
            if os.path.isdir(a) and not os.path.islink(a): shutil.rmtree(a, ignore_errors=True)
            try: os.unlink(a)
            except OSError: pass
            try: os.rename(b, a)
            except OSError: pass
        try: os.rename(a, b)
        except OSError: continue
        try: os.symlink(link, a)
        except OSError: pass
        time.sleep(0.001)
        try: os.unlink(a)
        except OSError: pass
        try: os.rename(b, a)
        except OSError: pass
        time.sleep(0.001)
    n += 1
print(n)
`;
const SH_ATTACKER = `
cd race || exit 1
n=0
while [ ! -e ../race-stop ]; do
  [ -e d.real ] && { [ -L d ] || [ ! -e d ] || rm -rf d; rm -f d; mv d.real d; }
  mv d d.real 2>/dev/null && ln -s "$1" d; rm -f d; mv d.real d 2>/dev/null
  mv d/f d/f.real 2>/dev/null && ln -s "$1/secret" d/f; rm -f d/f; mv d/f.real d/f 2>/dev/null
  n=$((n + 1))
done
echo "$n"
`;
/** The attacker's command; the Python program (when used) arrives on stdin. */
const attacker = (out: string) => `if command -v python3 >/dev/null 2>&1; then exec python3 - '${out}'; fi\nset -- '${out}'\n${SH_ATTACKER}`;

/** What the outside directory holds: names, sizes, change times and contents. */
const snapshotScript = (out: string) =>
  `cd '${out}' && for f in . * .[!.]*; do [ -e "$f" ] || [ -L "$f" ] || continue; stat -c '%n|%s|%y|%h' -- "$f"; [ -f "$f" ] && cat -- "$f"; echo; done`;

/**
 * A race campaign: hundreds of reads, writes (with parent creation), mkdirs and renames
 * while the attacker swaps. Escapes are counted, not sampled: any outside content
 * returned, or any change to the outside directory, fails the test.
 */
export function raceCampaignTests(backend: ContractBackend, rounds: number): void {
  it(`keeps ${rounds * 6} file operations inside the workspace while code in the sandbox swaps directories and files for symlinks`, async () => {
    const opened = await backend.open(makeWorkspace(), {});
    const { ws } = opened;
    const out = `/tmp/pincer-race-out-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await ws.exec(`mkdir -p '${out}' && printf '${SECRET}' > '${out}/secret'`);
      await ws.mkdir('race/d', { recursive: true });
      await ws.write('race/d/f', 'inside');
      const before = (await ws.exec(snapshotScript(out))).stdout;
      const swapping = ws.exec(attacker(out), { timeoutMs: 900_000, stdin: PY_ATTACKER });

      const escapes: string[] = [];
      const untyped: string[] = [];
      const attempt = async (what: string, op: () => Promise<unknown>) => {
        try {
          const result = await op();
          const text = JSON.stringify(result ?? null);
          if (text.includes(SECRET)) escapes.push(`${what} returned outside content`);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (!(WORKSPACE_ERROR_CODES as readonly string[]).includes(code ?? '')) untyped.push(`${what}: ${String(error)}`);
        }
      };
      for (let i = 0; i < rounds; i++) {
        await attempt('read', () => ws.read('race/d/f'));
        await attempt('write with mkdirs', () => ws.write(`race/d/s${i}/w.txt`, 'payload', { mkdirs: true }));
        await attempt('write', () => ws.write('race/d/f', `inside ${i}`));
        await attempt('mkdir', () => ws.mkdir(`race/d/m${i}`));
        await attempt('rename there', () => ws.rename('race/d/f', 'race/d/g'));
        await attempt('rename back', () => ws.rename('race/d/g', 'race/d/f'));
      }
      await ws.write('race-stop', '');
      const swaps = Number((await swapping).stdout.trim());
      const after = (await ws.exec(snapshotScript(out))).stdout;
      if (process.env.PINCER_RACE_REPORT) console.log(JSON.stringify({ swaps, escapes, untyped, changedOutside: after !== before, after }));

      expect(swaps).toBeGreaterThan(10); // the attacker really ran beside the operations
      expect(escapes).toEqual([]);
      expect(untyped).toEqual([]);
      expect(after).toBe(before); // nothing created, modified, moved or removed outside
      expect(before).toContain(SECRET);
    } finally {
      await ws.exec(`rm -rf '${out}'`).catch(() => undefined);
      await opened.close();
    }
  }, 600_000);
}

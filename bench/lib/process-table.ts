/**
 * What the process table says, for suites that promise "0 processes left": every live process
 * whose argv holds a marker, and every live member of a set of process groups (a plugin's pid is
 * its group id: the kernel starts each plugin in its own group). Zombies count as gone.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcEntry {
  pid: number;
  pgrp: number;
  state: string;
  argv: string;
}

function table(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(name), pgrp: Number(pgrp), state: state ?? '?', argv });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** Live processes (not zombies) whose argv contains `marker`, as "pid argv". */
export function processesWith(marker: string): string[] {
  return table()
    .filter((p) => p.state !== 'Z' && p.argv.includes(marker))
    .map((p) => `${p.pid} ${p.argv.slice(0, 160)}`);
}

/** Live processes (not zombies) in any of `groups`, as "pid (group g) argv". */
export function membersOfGroups(groups: ReadonlySet<number>): string[] {
  return table()
    .filter((p) => p.state !== 'Z' && groups.has(p.pgrp))
    .map((p) => `${p.pid} (group ${p.pgrp}) ${p.argv.slice(0, 160)}`);
}

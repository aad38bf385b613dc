/**
 * The plugin's half of "no process outlives the kernel": when the kernel is gone (SIGKILLed, it
 * cannot clean up), the plugin kills its own process group, taking every child it started with it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Process group of `pid` (from /proc on Linux, else `ps`), or undefined when unknown. */
export function processGroupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
    const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    if (Number.isInteger(pgrp) && pgrp > 0) return pgrp;
  } catch {
    // no /proc: ask ps
  }
  try {
    const pgrp = Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(pgrp) && pgrp > 0 ? pgrp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Returns a function that SIGKILLs this process's group (itself included), or undefined when
 * that group is not the plugin's own: a kernel starts each plugin in a new group, but a plugin
 * run another way may share its parent's, which it must never kill.
 */
export function ownGroupKiller(kernelPid: number | undefined): (() => void) | undefined {
  if (process.platform === 'win32') return undefined;
  const own = processGroupOf(process.pid);
  const kernel = processGroupOf(kernelPid ?? process.ppid);
  if (own === undefined || kernel === undefined || own === kernel) return undefined;
  return () => {
    try {
      process.kill(-own, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  };
}

import { readFileSync } from 'node:fs';

/**
 * Who wrote a journal: `<pid>.<start time>`, so a journal of a live process is never
 * recovered under its feet, and a reused pid is not mistaken for its dead owner. The start
 * time comes from /proc (Linux); elsewhere it is 0 and liveness falls back to the pid.
 */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the parenthesised command name, which may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export function ownerTag(pid = process.pid): string {
  return `${pid}.${startTimeOf(pid) ?? '0'}`;
}

/** Whether the process that wrote a journal tagged `tag` still runs. */
export function isOwnerAlive(tag: string): boolean {
  const [pidText, start] = tag.split('.');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (start !== '0') return startTimeOf(pid) === start;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

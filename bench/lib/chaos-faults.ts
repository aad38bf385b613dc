/**
 * The chaos suite's fault injector: SIGKILL, SIGSTOP (resumed with SIGCONT after a while) and a
 * closed RPC pipe (SIGUSR2 to a plugin that hangs up on it), each aimed at a plugin the kernel
 * reports ready, so every fault lands on a live process serving calls.
 */
import type { Kernel } from '../../kernel/index.js';

export type FaultKind = 'SIGKILL' | 'SIGSTOP' | 'hangup';
export const FAULT_KINDS: readonly FaultKind[] = ['SIGKILL', 'SIGSTOP', 'hangup'];

export interface FaultTarget {
  id: string;
  /** Whether it closes its pipe on SIGUSR2 (the other fixtures die of it instead). */
  hangsUp: boolean;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const between = ([min, max]: readonly [number, number]): number => min + Math.random() * (max - min);

export class FaultInjector {
  readonly applied: Record<FaultKind, number> = { SIGKILL: 0, SIGSTOP: 0, hangup: 0 };
  /** Every plugin pid seen (each is its process group's id), for the leftover check. */
  readonly groups = new Set<number>();
  private readonly stopped = new Map<number, NodeJS.Timeout>();
  private cycle: FaultKind[] = [];

  constructor(
    private readonly kernel: Kernel,
    private readonly targets: readonly FaultTarget[],
    private readonly stopMs: readonly [number, number],
  ) {}

  /** Records the pids of running plugins; call it often (restarts bring new ones). */
  observe(): void {
    for (const status of this.kernel.plugins()) if (status.pid) this.groups.add(status.pid);
  }

  /**
   * One fault, the kinds taken in shuffled cycles so each gets its share. False when no plugin
   * could take it now (none ready, or none that hangs up for `hangup`): the caller tries later.
   */
  inject(): boolean {
    if (this.cycle.length === 0) this.cycle = [...FAULT_KINDS].sort(() => Math.random() - 0.5);
    const kind = this.cycle[0]!;
    const ready = this.kernel.plugins().filter((s) => s.state === 'ready' && s.pid && !this.stopped.has(s.pid));
    const fit = ready.filter((s) => kind !== 'hangup' || this.targets.find((t) => t.id === s.id)?.hangsUp);
    if (fit.length === 0) return false;
    const pid = pick(fit).pid!;
    this.groups.add(pid);
    try {
      if (kind === 'SIGKILL') process.kill(pid, 'SIGKILL');
      else if (kind === 'hangup') process.kill(pid, 'SIGUSR2');
      else {
        process.kill(pid, 'SIGSTOP');
        this.stopped.set(pid, setTimeout(() => this.resume(pid), between(this.stopMs)));
      }
    } catch {
      return false; // it exited between the status and the signal
    }
    this.cycle.shift();
    this.applied[kind] += 1;
    return true;
  }

  /** SIGCONT to a stopped plugin (the kernel may have killed it meanwhile: then nothing). */
  private resume(pid: number): void {
    clearTimeout(this.stopped.get(pid));
    this.stopped.delete(pid);
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // gone: the kernel found it unresponsive and killed its group
    }
  }

  /** Resumes every plugin still stopped. */
  resumeAll(): void {
    for (const pid of [...this.stopped.keys()]) this.resume(pid);
  }

  /** SIGSTOPs one ready plugin and leaves it stopped: what kernel.stop() must cope with. */
  stopOneForGood(): string | undefined {
    const target = this.kernel.plugins().find((s) => s.state === 'ready' && s.pid);
    if (!target?.pid) return undefined;
    this.groups.add(target.pid);
    process.kill(target.pid, 'SIGSTOP');
    return target.id;
  }
}

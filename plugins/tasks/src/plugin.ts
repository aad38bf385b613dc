/**
 * The bundled tasks plugin: keeps the tasks ledger (capability `taskLedger`) in its data dir,
 * serves the `subagents` tool, and watches for cancel requests made by other processes
 * (`pincer tasks cancel`) against tasks its kernel runs.
 */
import path from 'node:path';
import { KERNEL_PID_ENV } from '../../../protocol/index.js';
import { definePlugin, pluginDataDir, type KernelClient } from '../../../sdk/plugin-api.js';
import { LedgerStore, type LedgerRetention } from './ledger-store.js';
import { createSubagentsTool } from './subagents-tool.js';

const CANCEL_POLL_MS = 1_000;
const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A positive number setting, or its default; anything else is refused by name (the handshake fails with it). */
function positive(settings: Record<string, unknown>, key: string, fallback: number, integer: boolean): number {
  const value = settings[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new Error(`settings.${key} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function retentionFrom(settings: Record<string, unknown>): LedgerRetention {
  return { maxAgeMs: positive(settings, 'retentionDays', 7, false) * DAY_MS, maxFinished: positive(settings, 'maxFinishedTasks', 10_000, true) };
}

export function createTasksPlugin(options: { file?: string; pollMs?: number } = {}) {
  let ledger: LedgerStore | undefined;
  let kernel: KernelClient | undefined;
  const timers: NodeJS.Timeout[] = [];
  const notified = new Set<string>();
  const open = (): LedgerStore => {
    if (!ledger) throw new Error('the tasks ledger is not open (the plugin has not been activated)');
    return ledger;
  };
  const notify = (id: string): void => {
    if (notified.has(id)) return;
    notified.add(id);
    kernel?.notifyCancelRequested(id);
  };

  return definePlugin({
    id: 'tasks',
    version: '0.1.0',
    family: 'sessions',
    tools: [createSubagentsTool(open, notify)],
    taskLedger: {
      record: (task) => open().record(task),
      query: (params) => ({ tasks: open().query(params) }),
      requestCancel: (id) => {
        const task = open().requestCancel(id);
        if (task && task.cancelRequested) notify(id);
        return { task };
      },
    },
    activate({ settings, log, kernel: client }) {
      const retention = retentionFrom(settings); // bad settings fail before the database is opened
      kernel = client;
      // The owner is the kernel process: a restart of this plugin does not orphan its kernel's tasks.
      const owner = Number(process.env[KERNEL_PID_ENV]) || process.pid;
      ledger = new LedgerStore(options.file ?? path.join(pluginDataDir(), 'tasks.sqlite'), `kernel:${owner}`, owner);
      const interrupted = ledger.recoverInterrupted();
      if (interrupted > 0) log.warn(`tasks ledger: ${interrupted} task(s) were left unfinished by a process that stopped; marked failed (interrupted), not re-run`);
      ledger.prune(retention);
      // A locked or failing database skips one round (and says so); it never kills the plugin.
      const safely = (what: string, fn: () => void) => () => {
        try {
          fn();
        } catch (error) {
          log.warn(`tasks ledger: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      };
      timers.push(setInterval(safely('reading cancel requests', () => ledger?.pendingCancels().forEach(notify)), options.pollMs ?? CANCEL_POLL_MS).unref());
      timers.push(setInterval(safely('pruning', () => ledger?.prune(retention)), PRUNE_EVERY_MS).unref());
    },
    deactivate() {
      timers.forEach(clearInterval);
      ledger?.close();
      ledger = undefined;
    },
  });
}

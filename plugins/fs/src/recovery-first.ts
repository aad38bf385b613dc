import type { ToolInvokeResult } from '../../../protocol/index.js';
import type { ToolDefinition, ToolReturn } from '../../../sdk/plugin-api.js';
import { defaultJournalStore } from './journal/default-store.js';
import { recoverSession, type RecoveryReport } from './journal/recover.js';
import type { JournalStore } from './journal/store.js';
import type { FsToolContext } from './tools/results.js';

async function settle(ctx: FsToolContext): Promise<RecoveryReport | undefined> {
  let store: JournalStore;
  try {
    store = ctx.journals ?? defaultJournalStore();
  } catch {
    return undefined; // no journal directory, so no journal either (a multi-file patch says so when it needs one)
  }
  try {
    return await recoverSession(store, ctx.call?.sessionKey ?? '', ctx.workspace, ctx.signal);
  } catch (error) {
    return { undone: 0, finished: 0, notRestored: [], retrying: `could not read the patch journal: ${(error as Error).message}` };
  }
}

/** One line for the model about what recovery did, or nothing when there was nothing to do. */
export function recoveryNote(report: RecoveryReport | undefined): string | undefined {
  if (report === undefined || (report.undone === 0 && report.finished === 0 && report.notRestored.length === 0 && report.retrying === undefined)) return undefined;
  const parts: string[] = [];
  if (report.undone > 0) parts.push(`${report.undone} apply_patch call(s) interrupted by a crash were undone; their files are as before them.`);
  if (report.finished > 0) parts.push(`${report.finished} apply_patch call(s) interrupted after all their changes landed were completed.`);
  if (report.notRestored.length > 0) parts.push(`Could not restore: ${report.notRestored.map((n) => `${n.path} (${n.reason})`).join('; ')}.`);
  if (report.retrying !== undefined) parts.push(`An interrupted apply_patch could not be settled yet (${report.retrying}); this is retried before the next file operation.`);
  return `[Before this call: ${parts.join(' ')}]`;
}

function withNote(result: ToolReturn, note: string | undefined, report: RecoveryReport | undefined): ToolReturn {
  if (note === undefined) return result;
  const full: ToolInvokeResult = typeof result === 'string' ? { content: [{ type: 'text', text: result }] } : result;
  const details = typeof full.details === 'object' && full.details !== null ? full.details : {};
  return { ...full, content: [{ type: 'text', text: note }, ...full.content], details: { ...details, recovery: report } };
}

/**
 * Every fs tool first settles the session's interrupted patches (see journal/recover.ts), so
 * no fs call ever sees, or builds on, a patch that is half applied.
 */
export function recoveryFirst(tool: ToolDefinition<any>): ToolDefinition<any> {
  return {
    ...tool,
    handler: async (params, ctx) => {
      const report = await settle(ctx);
      return withNote(await tool.handler(params, ctx), recoveryNote(report), report);
    },
  };
}

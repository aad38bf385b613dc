import * as z from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { explainWorkspaceError, WORKSPACE_ERROR_HINTS } from '../../../../sdk/fs-bridge/index.js';
import { defaultJournalStore } from '../journal/default-store.js';
import { assertWellFormed } from '../text/utf8.js';
import { PatchConflictError } from './patch-chunks.js';
import { commitPlan, PatchCommitError } from './patch-commit.js';
import { parsePatch, PatchParseError } from './patch-parse.js';
import { planPatch, type PlannedChange } from './patch-plan.js';
import { explained, fail, FsToolError, ok, type FsToolContext } from './results.js';

export const ApplyPatchParams = z.object({
  input: z
    .string()
    .min(1)
    .describe(
      "The patch, from '*** Begin Patch' to '*** End Patch'. Per file: '*** Add File: path' then lines starting with '+'; '*** Delete File: path'; or '*** Update File: path' (optionally '*** Move to: new/path') then chunks, each starting with '@@' (optionally '@@ <a line just above the change>') and lines starting with ' ' (unchanged context), '-' (removed) or '+' (added).",
    ),
});

function summarize(change: PlannedChange): string {
  if (change.op === 'add') return `A ${change.path}`;
  if (change.op === 'delete') return `D ${change.path}`;
  if (change.op === 'move') return `R ${change.path} -> ${change.newPath}`;
  return `M ${change.path}`;
}

/**
 * A write failed mid-way: say exactly what the undo restored, which is the promise of this
 * tool. A failure without a workspace code (the backend crashed) is reported the same way;
 * a cancellation stays a cancellation.
 */
function commitFailure(error: PatchCommitError, signal: AbortSignal) {
  const why = explainWorkspaceError(error.cause);
  if (why === undefined && signal.aborted) throw error.cause;
  const { notRestored, retrying } = error;
  const listed = notRestored.map((n) => `${n.path} (${n.reason})`).join('; ');
  const outcome = [
    notRestored.length === 0 && retrying === undefined ? 'The changes already made were undone; no file changed.' : '',
    notRestored.length > 0 ? `Could not restore: ${listed}.` : '',
    retrying !== undefined ? `The undo could not finish yet (${retrying}); it is retried before the next file operation of this session.` : '',
  ].filter(Boolean);
  const code = why?.code ?? 'IO_ERROR';
  return fail(code, `${why?.message ?? error.message}. ${outcome.join(' ')}`, why?.hint ?? WORKSPACE_ERROR_HINTS.IO_ERROR, {
    rolledBack: notRestored.length === 0 && retrying === undefined,
    notRestored,
    ...(retrying !== undefined ? { retrying } : {}),
  });
}

export async function runApplyPatch(params: z.output<typeof ApplyPatchParams>, ctx: FsToolContext) {
  return explained({}, async () => {
    assertWellFormed(params.input, 'input');
    let plan: PlannedChange[];
    try {
      plan = await planPatch(parsePatch(params.input), ctx.workspace, ctx.signal);
    } catch (error) {
      if (error instanceof PatchParseError) throw new FsToolError('PATCH_PARSE_ERROR', error.message, 'Nothing was changed. Fix the patch format and try again.');
      if (error instanceof PatchConflictError) throw new FsToolError('PATCH_CONFLICT', error.message, 'Nothing was changed. Read the file again and rebuild the hunk from its current text.');
      throw error;
    }
    ctx.progress?.({ message: `applying ${plan.length} file change(s)` });
    try {
      await commitPlan(plan, ctx.workspace, ctx.signal, {
        journals: () => ctx.journals ?? defaultJournalStore(),
        session: ctx.call?.sessionKey ?? '',
        // Each landed change is progress: a long patch keeps its call alive.
        progress: (done, total) => ctx.progress?.({ message: `applied ${done}/${total}`, progress: done, total }),
      });
    } catch (error) {
      if (error instanceof PatchCommitError) return commitFailure(error, ctx.signal);
      throw error;
    }
    return ok(`Applied patch:\n${plan.map(summarize).join('\n')}`, {
      changes: plan.map((c) => ({ op: c.op, path: c.path, ...(c.op === 'move' ? { newPath: c.newPath } : {}) })),
    });
  });
}

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  description:
    "Add, delete, update or move several workspace files in one patch. The patch is checked completely first and applied all-or-nothing: if any hunk does not match, no file changes. Format: '*** Begin Patch', then per file '*** Add File: p' / '*** Delete File: p' / '*** Update File: p' with '@@' chunks of ' ', '-', '+' lines, then '*** End Patch'.",
  inputSchema: ApplyPatchParams,
  executionMode: 'sequential',
  handler: runApplyPatch,
});

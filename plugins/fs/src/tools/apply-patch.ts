import { z } from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { PatchConflictError } from './patch-chunks.js';
import { parsePatch, PatchParseError } from './patch-parse.js';
import { commitPlan, planPatch, type PlannedChange } from './patch-plan.js';
import { explainWorkspaceError } from '../../../../sdk/fs-bridge/index.js';
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

/** A write failed mid-way: say whether the undo restored everything, which is the promise of this tool. */
function commitFailure(error: unknown) {
  const why = explainWorkspaceError(error);
  if (why === undefined) throw error;
  const { rolledBack, notRestored = [] } = error as { rolledBack?: boolean; notRestored?: string[] };
  const outcome = rolledBack === true ? 'The changes already made were undone; no file changed.' : `Could not restore: ${notRestored.join(', ')}.`;
  return fail(why.code, `${why.message}. ${outcome}`, why.hint, { rolledBack: rolledBack === true, notRestored });
}

export async function runApplyPatch(params: z.output<typeof ApplyPatchParams>, ctx: FsToolContext) {
  return explained({}, async () => {
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
      await commitPlan(plan, ctx.workspace, ctx.signal);
    } catch (error) {
      return commitFailure(error);
    }
    const lines = plan.map(summarize);
    return ok(`Applied patch:\n${lines.join('\n')}`, {
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

import type { ExecRunOperation } from '../../../protocol/v1/exec-runs.js';
import type { SandboxOperations } from '../../plugin-api.js';
import type { TranscriptExecutor } from '../shell/exec-outcome.js';
import type { RunTable } from './run-table.js';

/** A prepared session's workspace, as far as runs need it. */
export interface RunCapableWorkspace {
  execInto: TranscriptExecutor;
}

/** The workspace, if it can run commands into a transcript (every built-in backend's can). */
export function asRunCapable(workspace: object): RunCapableWorkspace {
  if (typeof (workspace as Partial<RunCapableWorkspace>).execInto !== 'function') {
    throw new Error('this sandbox backend cannot run commands detached from a call (background runs)');
  }
  return workspace as RunCapableWorkspace;
}

/**
 * The `sandbox/run*` handlers of a backend: one RunTable for the whole backend process (its
 * limits span sessions), each run started with its session's current workspace.
 */
export function runOperations(
  table: RunTable,
  workspaceOf: (session: string) => RunCapableWorkspace | Promise<RunCapableWorkspace>,
): Required<Pick<SandboxOperations, ExecRunOperation>> {
  return {
    runStart: async (p) => {
      const workspace = await workspaceOf(p.session);
      return table.start(p.session, (...args) => workspace.execInto(...args), p.command, p.options);
    },
    runList: async (p) => table.list(p.session),
    runRead: (p, ctx) => table.read(p.session, p.runId, p.options, ctx.signal),
    runKill: (p) => table.kill(p.session, p.runId),
  };
}

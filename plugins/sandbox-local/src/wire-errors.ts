import type { WorkspaceService } from '../../../protocol/index.js';
import { WorkspaceError as WireWorkspaceError } from '../../../sdk/plugin-api.js';
import { WorkspaceError } from '../../../sdk/fs-bridge/index.js';

/** fs-bridge errors carry a string code; on the wire they travel as the SDK's WorkspaceError (data.code). */
export function toWireError(error: unknown): unknown {
  if (error instanceof WorkspaceError) return new WireWorkspaceError(error.code, error.message, { path: error.path, cause: error });
  return error;
}

/**
 * The same workspace, throwing wire-ready errors: what a backend plugin serves and
 * what an in-memory harness should see, so `data.code` survives the protocol.
 */
export function withWireErrors(workspace: WorkspaceService): WorkspaceService {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      fn(...args).catch((error: unknown) => {
        throw toWireError(error);
      });
  return {
    read: wrap(workspace.read.bind(workspace)),
    write: wrap(workspace.write.bind(workspace)),
    stat: wrap(workspace.stat.bind(workspace)),
    readDirectory: wrap(workspace.readDirectory.bind(workspace)),
    mkdir: wrap(workspace.mkdir.bind(workspace)),
    remove: wrap(workspace.remove.bind(workspace)),
    rename: wrap(workspace.rename.bind(workspace)),
    exec: wrap(workspace.exec.bind(workspace)),
    ...(workspace.runs ? { runs: workspace.runs } : {}), // a run's failure is reported in the run, never thrown
  };
}

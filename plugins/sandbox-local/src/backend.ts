import type { WorkspaceService } from '../../../protocol/index.js';
import type { TempJournal } from '../../../sdk/fs-bridge/index.js';
import type { SandboxBackendDefinition } from '../../../sdk/plugin-api.js';
import { RunTable } from '../../../sdk/sandbox/runs/run-table.js';
import { runOperations } from '../../../sdk/sandbox/runs/run-operations.js';
import { execReportingOutput } from '../../../sdk/sandbox/shell/output-reports.js';
import { resolveLocalOptions } from './backend-config.js';
import { LOCAL_WORKSPACE_ROOT, LocalWorkspace } from './local-workspace.js';
import { openTempJournal } from './plugin-data.js';

interface Prepared {
  local: LocalWorkspace;
  /** Same key → same sandbox: a repeated prepare reuses it. */
  key: string;
}

/**
 * The `local` sandbox backend: one LocalWorkspace per prepared session, each
 * `sandbox/<op>` delegated to it with the request's cancellation signal.
 */
export function createLocalBackend(options: { tempJournal?: TempJournal } = {}): SandboxBackendDefinition {
  const sessions = new Map<string, Prepared>();
  let journal = options.tempJournal;
  const tempJournal = (): TempJournal => {
    if (journal !== undefined) return journal;
    journal = openTempJournal();
    // Opened before our first write: every temp file it records is a crash's leftover.
    journal.sweep(true);
    return journal;
  };
  const runTable = new RunTable(); // one for the backend: run limits span its sessions
  const prepared = (session: string): Prepared => {
    const found = sessions.get(session);
    if (found === undefined) throw new Error(`local backend: session "${session}" was not prepared`);
    return found;
  };
  const of = (session: string): WorkspaceService => prepared(session).local;
  return {
    id: 'local',
    async prepare(params, ctx) {
      const options = await resolveLocalOptions({ ...params, settings: ctx.settings });
      const journal = tempJournal();
      journal.sweep(); // leftovers of another process on this data directory that died mid-write
      const key = JSON.stringify(options);
      const reused = sessions.get(params.session)?.key === key;
      if (!reused) {
        const local = new LocalWorkspace({ ...options, tempJournal: journal, runTable, session: params.session });
        sessions.set(params.session, { key, local });
      }
      return { session: params.session, workdir: LOCAL_WORKSPACE_ROOT, reused };
    },
    release(session) {
      sessions.delete(session);
    },
    operations: {
      read: (p, ctx) => of(p.session).read(p.path, p.options, ctx.signal),
      write: (p, ctx) => of(p.session).write(p.path, p.content, p.options, ctx.signal),
      stat: (p, ctx) => of(p.session).stat(p.path, ctx.signal),
      readDirectory: (p, ctx) => of(p.session).readDirectory(p.path, ctx.signal),
      mkdir: async (p, ctx) => (await of(p.session).mkdir(p.path, p.options, ctx.signal), null),
      remove: async (p, ctx) => (await of(p.session).remove(p.path, p.options, ctx.signal), null),
      rename: async (p, ctx) => (await of(p.session).rename(p.from, p.to, ctx.signal), null),
      exec: (p, ctx) => execReportingOutput(of(p.session), p, ctx),
      ...runOperations(runTable, (session) => prepared(session).local),
    },
  };
}

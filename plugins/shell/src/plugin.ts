import { definePlugin } from '../../../sdk/plugin-api.js';
import { BackgroundTasks } from './runs/background-tasks.js';
import { RunJournal, journalFile } from './runs/journal.js';
import { SHELL_PLUGIN, createShellTools } from './tools.js';

/**
 * The shell plugin. Its background runs belong to the sandbox backend and survive a restart
 * of this plugin; so does the journal of the runs it started, kept in its data dir. Each run
 * is a task in the kernel's ledger, and cancelling that task kills the run.
 */
export function createShellPlugin(journal = new RunJournal(journalFile())) {
  const tasks = new BackgroundTasks();
  // Commands run in the sandbox backend, reached through the kernel: the plugin itself needs only its data directory.
  return definePlugin({
    ...SHELL_PLUGIN,
    tools: createShellTools(journal, tasks),
    cancelTask: (runId) => tasks.cancel(runId),
    deactivate: () => tasks.stopWatching(),
    confinement: { network: 'none', spawn: false },
  });
}

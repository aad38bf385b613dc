import { definePlugin } from '../../../sdk/plugin-api.js';
import { RunJournal, journalFile } from './runs/journal.js';
import { SHELL_PLUGIN, createShellTools } from './tools.js';

/**
 * The shell plugin. Its background runs belong to the sandbox backend and survive a restart
 * of this plugin; so does the journal of the runs it started, kept in its data dir.
 */
export function createShellPlugin(journal = new RunJournal(journalFile())) {
  return definePlugin({ ...SHELL_PLUGIN, tools: createShellTools(journal) });
}

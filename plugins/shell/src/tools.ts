import type { ToolDefinition } from '../../../sdk/plugin-api.js';
import type { BackgroundTasks } from './runs/background-tasks.js';
import type { RunJournal } from './runs/journal.js';
import { createExecTool } from './tools/exec.js';
import { createProcessTool } from './tools/process.js';
import { withShellMetadata } from './tools/metadata.js';

export const SHELL_PLUGIN = { id: 'shell', version: '0.1.0', family: 'shell' } as const;

/**
 * The shell family. Background runs live in the sandbox backend, not here; the journal only
 * remembers which runs this plugin started, so it can tell a lost run from an unknown one.
 */
export function createShellTools(journal: RunJournal, tasks?: BackgroundTasks): ToolDefinition<any>[] {
  return [createExecTool(journal, tasks), createProcessTool(journal, tasks)].map(withShellMetadata);
}

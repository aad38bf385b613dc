import { describe, expect, it } from 'vitest';
import { pluginModule, startKernel, turnPlugins } from './helpers.js';

describe('bad settings of the automations and tasks plugins', () => {
  it('fail the plugin\'s start with an error naming the setting and the value, never a silent default', async () => {
    const t = await startKernel((workspace) => ({
      plugins: [
        ...turnPlugins(workspace, []),
        { id: 'automations', module: pluginModule('automations'), settings: { maxJobsPerAgent: 0 } },
        { id: 'tasks', module: pluginModule('tasks'), settings: { retentionDays: 'a week' } },
      ],
      agents: { list: [{ id: 'main', default: true, workspace }] },
    }));
    try {
      const status = (id: string) => t.kernel.plugins().find((plugin) => plugin.id === id);
      expect(status('automations')).toMatchObject({ state: 'failed', lastError: { message: expect.stringContaining('settings.maxJobsPerAgent must be a positive integer, got 0') } });
      expect(status('tasks')).toMatchObject({ state: 'failed', lastError: { message: expect.stringContaining('settings.retentionDays must be a positive number, got "a week"') } });
    } finally {
      await t.kernel.stop();
    }
  });
});

import { definePlugin } from '../../../sdk/plugin-api.js';
import { BackgroundRegistry } from './background/registry.js';
import { SHELL_PLUGIN, createShellTools } from './tools.js';

/** Build the shell plugin with its own background registry (one per plugin process, or per test). */
export function createShellPlugin(registry = new BackgroundRegistry()) {
  return definePlugin({
    ...SHELL_PLUGIN,
    tools: createShellTools(registry),
    // Nothing started in the background may outlive the plugin.
    deactivate: () => registry.killAll(),
  });
}

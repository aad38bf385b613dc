/** `pincer/sdk/testing`: test a plugin in memory, without a kernel. Named exports only. */
export { createPluginTestHarness } from './harness.js';
export type { CallOptions, HarnessOptions, PluginTestHarness } from './harness.js';
export { createMemoryWorkspace } from './memory-workspace.js';
export type { MemoryWorkspace, MemoryWorkspaceOptions } from './memory-workspace.js';

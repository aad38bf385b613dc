// Embedding the kernel (README "The policy API"). Run from any directory: node examples/embed-kernel.mjs
import { createKernel, defaultConfig } from 'pincer';

// The embedded default (bundled fs + shell plugins, local backend, coding profile), with one
// extra deny so explain() has something to say.
const config = { ...defaultConfig({ cwd: process.cwd() }), tools: { profile: 'coding', deny: ['exec'] } };
const kernel = createKernel(config);
await kernel.start();
try {
  const toolSet = kernel.assembleTools({ agentId: 'main', provider: 'openai' });
  console.log(toolSet.tools.map((tool) => tool.name));
  // → [ 'ls', 'read', 'write', 'edit', 'apply_patch', 'process' ]
  console.log(toolSet.explain('bash').removal);
  // → { tool: 'exec', layer: 'global', ruleKind: 'deny', matchedRules: [ 'exec' ], configKey: 'tools.deny', ... }
  const result = await toolSet.execute('read', { path: 'package.json', limit: 3 });
  console.log(result.content[0].text);
} finally {
  await kernel.stop();
}

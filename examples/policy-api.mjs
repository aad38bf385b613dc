// The SDK's pure policy primitives (README "The policy API"). Run: node examples/policy-api.mjs
import { toolPolicy, applyEmbeddedAttemptToolsAllow, intersectToolAllowlists, splitSandboxBindSpec } from 'pincer/sdk';

console.log(toolPolicy.expandToolGroups(['group:fs', 'bash']));
// → [ 'ls', 'read', 'write', 'edit', 'apply_patch', 'exec' ]

const allowed = toolPolicy.createToolPolicyMatcher({ allow: ['group:runtime', 'write'], deny: ['process'] });
console.log(allowed('exec'), allowed('apply_patch'), allowed('process'));
// → true true false   (write admits apply_patch; deny wins)

const tools = [{ name: 'read' }, { name: 'write' }, { name: 'exec' }];
const kept = applyEmbeddedAttemptToolsAllow(tools, intersectToolAllowlists([['group:fs'], ['read', 'exec']]));
console.log(kept.map((tool) => tool.name));
// → [ 'read' ]   (each independent restriction must admit a tool)

console.log(splitSandboxBindSpec('C:\\data:/data:ro'));
// → { host: 'C:\\data', container: '/data', options: 'ro' }

/** Library surface of the docker sandbox backend (the CLI and tests import from here). */
export { DockerSandbox, type DockerSandboxHandle, type DockerSandboxOptions } from './docker-sandbox.js';
export { DockerWorkspace, toGuardMounts } from './docker-workspace.js';
export { DockerShell } from './docker-shell.js';
export { planDockerSandbox, type DockerSandboxPlan, type SandboxSessionContext } from './plan.js';
export { listSandboxes, recreateSandboxes, pruneSandboxes, type LifecycleDeps } from './lifecycle.js';
export { runDockerSelfTest, type SelfTestReport } from './self-test.js';
export { createDockerPlugin } from './plugin.js';

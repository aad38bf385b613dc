/** Library surface of the docker sandbox backend (the CLI and tests import from here). */
export { DockerSandbox, type DockerSandboxHandle, type DockerSandboxOptions } from './docker-sandbox.js';
export { DockerWorkspace, toGuardMounts } from './docker-workspace.js';
export { DockerShell } from './docker-shell.js';
export { planDockerSandbox, sandboxContainerName, type DockerSandboxPlan, type SandboxSessionContext } from './plan.js';
export { containerDrift } from './container-match.js';
export { dockerRegistryPath, openDockerRegistry, pluginDataDir, REGISTRY_FILE } from './registry-location.js';
export { imageMissingMessage } from './engine-errors.js';
export { listSandboxes, recreateSandboxes, pruneSandboxes, type LifecycleDeps } from './lifecycle.js';
export { runDockerSelfTest, type SelfTestReport } from './self-test.js';
export { createDockerPlugin } from './plugin.js';
export { buildSandboxImage, shippedDockerfile, type ImageBuildOptions } from './image-build.js';

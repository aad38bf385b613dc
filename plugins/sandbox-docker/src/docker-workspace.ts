import { SandboxPathGuard } from '../../../sdk/sandbox/guard/path-guard.js';
import type { GuardMount } from '../../../sdk/sandbox/guard/mount-table.js';
import { protectMounts } from '../../../sdk/sandbox/guard/protect-mounts.js';
import type { SandboxMount } from '../../../sdk/sandbox/mounts.js';
import { ShellWorkspace, type ShellWorkspaceOptions } from '../../../sdk/sandbox/shell/shell-workspace.js';
import type { DockerSandbox, DockerSandboxHandle } from './docker-sandbox.js';
import type { SandboxSessionContext } from './plan.js';

/** The guard's view of docker mounts: the container path is both namespace and target. */
export function toGuardMounts(mounts: readonly SandboxMount[]): GuardMount[] {
  return mounts.map((m) => ({ path: m.containerPath, target: m.containerPath, writable: !m.readOnly, source: m.source, hostRoot: m.hostPath }));
}

/**
 * The workspace service of a docker-sandboxed session: every file operation and command
 * runs inside the container via `docker exec`, behind the shared path guard.
 */
export class DockerWorkspace extends ShellWorkspace {
  private constructor(readonly handle: DockerSandboxHandle, guard: SandboxPathGuard, options: ShellWorkspaceOptions) {
    super(handle.shell, guard, options);
  }

  static async open(sandbox: DockerSandbox, ctx: SandboxSessionContext, options: ShellWorkspaceOptions = {}): Promise<DockerWorkspace> {
    const handle = await sandbox.ensureContainer(ctx);
    const mounts = protectMounts(toGuardMounts(handle.plan.mounts), ctx.workspaceDir, options.protectedPaths);
    const guard = await SandboxPathGuard.open(handle.shell, sandbox.options.config.docker.workdir, mounts, { allowHardLinks: options.allowHardLinks });
    return new DockerWorkspace(handle, guard, options);
  }

  get containerName(): string {
    return this.handle.plan.name;
  }
}

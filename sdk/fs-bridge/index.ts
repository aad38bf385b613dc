/**
 * fs-bridge: the path machinery sandbox backends share. The mapping functions are
 * pure (no I/O) and usable by any backend; HostFsBridge and its helpers are for
 * backends whose mounts are visible on the host (local, docker bind mounts).
 */
export { WorkspaceError, isWorkspaceError, toWorkspaceError, workspaceErrorCodeOf } from './errors.js';
export { rootSyntaxOf, relativeInsideRoot, type RootSyntax } from './path-syntax.js';
export {
  mapWorkspacePath,
  resolvePathMapping,
  resolveHostMapping,
  type PathMapping,
  type MappedPath,
  type MapWorkspacePathOptions,
} from './path-mappings.js';
export { canonicalizeHostPath } from './canonical.js';
export { PathGuard, type GuardedPath, type AdmitOptions } from './path-guard.js';
export { openVerified, assertPolicyPathNamesTarget } from './open-verified.js';
export { readBounded, DEFAULT_MAX_READ_BYTES } from './bounded-read.js';
export { writeFileAtomic, type AtomicWriteOptions } from './atomic-write.js';
export { readDirectoryEntries } from './read-directory.js';
export { HostFsBridge, type HostFsBridgeOptions, type BridgeReadOptions } from './host-bridge.js';
export { explainWorkspaceError, WORKSPACE_ERROR_HINTS, type ExplainedWorkspaceError } from './explain.js';

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
export { writeFileAtomic, replaceFileAt, type AtomicWriteOptions } from './atomic-write.js';
export { HeldDirectory, openDirectoryChain, CAN_ADDRESS_BY_FD } from './held-directory.js';
export { TempJournal, TEMP_PREFIX, tempName } from './temp-journal.js';
export { fileVersion, fileFacts } from './file-version.js';
export { pathSyntaxProblem, NAME_MAX_BYTES, PATH_MAX_BYTES } from './path-limits.js';
export {
  normalizeProtectedPaths,
  protectedRelation,
  protectedPathsForMount,
  foldCase,
  ProtectedPathSyntaxError,
  type ProtectedRelation,
} from './protected-paths.js';
export { readDirectoryEntries } from './read-directory.js';
export { HostFsBridge, type HostFsBridgeOptions, type BridgeReadOptions, type BridgeWriteOptions } from './host-bridge.js';
export { explainWorkspaceError, WORKSPACE_ERROR_HINTS, type ExplainedWorkspaceError } from './explain.js';

/**
 * Every error code Pincer gives, with its cause and its fix: the data behind
 * docs/reference/errors.md. Each family is a Record over its code type, so a code added to the
 * code (or removed) without its entry here fails the build; the runtime lists are checked by
 * test/operators/reference-docs.test.ts, which also reads every error class in the source
 * (error-class-scan.ts) and fails on a code that no family here has.
 */
import type { CliErrorCode } from '../../cli/errors.js';
import type { CallOutcome, ConfigErrorCode, KernelErrorCode, KernelUsageErrorCode, ProviderToolErrorCode } from '../../kernel/index.js';
import type { ToolRejectionCode } from '../../kernel/host/tool-screen.js';
import type { NodeErrorCode, ProtocolErrorCodeName, WorkspaceErrorCode } from '../../protocol/index.js';
import type { PolicyInputErrorCode, SandboxErrorCode } from '../../sdk/index.js';
import type { KERNEL_CALL_CODES } from '../../kernel/adapter/call-result.js';
import type { RunContextErrorCode } from '../../kernel/assembly/errors.js';
import type { HookFilterError } from '../../kernel/assembly/hooks.js';
import type { SkillCommandErrorCode } from '../../kernel/skills/errors.js';
import type { TurnRefusalReason } from '../../protocol/index.js';
import type { StoreErrorCode } from '../../sdk/store/index.js';
import type { ScheduleErrorCode } from '../../plugins/automations/src/schedule.js';
import type { FsToolErrorCode } from '../../plugins/fs/src/tools/results.js';
import type { LoginRequiredError } from '../../plugins/mcp-bridge/src/auth/file-provider.js';
import type { ServerUnavailableError } from '../../plugins/mcp-bridge/src/servers/errors.js';
import type { ServerConfigError } from '../../plugins/mcp-bridge/src/servers/transport.js';
import type { InvalidMessageError } from '../../protocol/transport/errors.js';

export interface CatalogEntry {
  cause: string;
  fix: string;
}

type Catalog<C extends string> = Record<C, CatalogEntry>;
const e = (cause: string, fix: string): CatalogEntry => ({ cause, fix });

/** `outcome` of a call result (`toolSet.execute`, `pincer call --json`, MCP `_meta["pincer/outcome"]`). */
export const CALL_OUTCOMES: Catalog<CallOutcome> = {
  ok: e('The tool ran and succeeded.', 'Nothing to fix.'),
  tool_error: e('The tool ran and reported an error, threw, or its plugin broke the protocol; `code` says which.', 'Read `error.message`: the model is meant to react to it (a wrong path, a conflict). For `PLUGIN_CRASHED`, retry.'),
  blocked: e('The gate stopped the call before it ran: loop detection, a hook, a trusted policy, a missing required plugin or an approval that could not be had.', "The code names the step; `pincer explain` and the plugin's status say more."),
  denied: e('Policy removed the tool for this run, or the operator denied the approval.', '`pincer explain TOOL` names the layer and the config key to change.'),
  cancelled: e("The caller's signal aborted, the approval was cancelled, or the kernel stopped.", 'Nothing, unless the cancel was unintended.'),
  timed_out: e('The plugin did not answer within the deadline, or nobody decided an approval in time.', "Raise the plugin's `timeouts.callMs`/`maxCallMs`, or make the tool report progress."),
  unavailable: e("The tool is not in the run, or its plugin cannot serve it now.", "`pincer plugins` shows the plugin's state and last error."),
};

type KernelCallCode = (typeof KERNEL_CALL_CODES)[number];

/** `code` of a failed call result that the kernel itself gives (a tool's own codes pass through). */
export const CALL_CODES: Catalog<KernelCallCode> = {
  TOOL_ERROR: e('The tool returned an error result without a code of its own (or claimed one of the kernel\'s).', "The message is the tool's; fix the call's arguments or what it points at."),
  TOOL_FAILED: e('The tool threw: the plugin answered the call with an error.', "Read the message; the plugin's log (`PINCER_LOG=debug`) has the rest."),
  TOOL_ABORTED: e('The tool gave up as if cancelled while the caller did not cancel.', "Look at the plugin's own deadline handling; retry."),
  INVALID_PARAMS: e('The arguments are not a JSON object, or fail the tool\'s schema.', 'Send an object that matches the tool\'s `inputSchema` (`pincer tools --json` shows it).'),
  PLUGIN_CRASHED: e('The plugin process died during the call; the supervisor restarts it.', "Retry. If it keeps crashing, the plugin's stderr (under `plugin:<id>` in the log) says why."),
  PLUGIN_TIMEOUT: e("The plugin did not answer within the call's idle deadline (`callMs`) or its ceiling (`maxCallMs`).", "Raise the plugin's `timeouts`, or have the tool report progress (each report restarts `callMs`)."),
  PLUGIN_UNAVAILABLE: e("The tool's plugin is failed, restarting or stopped.", "`pincer plugins` shows the state and last error; fix the plugin or wait for its restart."),
  PLUGIN_STOPPED: e('The kernel stopped while the call was in flight.', 'Nothing: the host is shutting down.'),
  CANCELLED: e("The caller's signal aborted the call.", 'Nothing, unless the cancel was unintended.'),
  UNKNOWN_TOOL: e('No tool by that name in this run: no enabled plugin contributes it.', 'Enable a plugin that provides it for the agent; `pincer explain TOOL` says whether policy would then allow it.'),
  TOOL_REMOVED: e('Policy removed the tool for this run; `details.removal` names the layer, rule and config key.', '`pincer explain TOOL`; a profile removal is lifted with `alsoAllow`, a deny by removing the entry.'),
  LOOP_DETECTED: e('Loop detection judged the run stuck (the same call repeating without progress).', 'Change the approach; tune `tools.loopDetection` only if the detector is wrong.'),
  HOOK_BLOCKED: e("A plugin's `before_tool_call` hook blocked the call; the message is its reason.", 'Follow the reason, or change the hook plugin\'s settings.'),
  POLICY_BLOCKED: e("One of the embedding host's trusted policies blocked the call.", "The host's policy says why."),
  POLICY_HOOK_FAILED: e('A hook or trusted policy threw, timed out or answered garbage: the call fails closed.', "Fix the hook plugin (its log says why); `timeouts.hookMs` if it is only slow."),
  REQUIRED_PLUGIN_UNAVAILABLE: e('A plugin the agent marks `required` is missing, failed or restarting, so every call of the run is blocked.', "`pincer plugins`; fix or restart that plugin (`toolSet.blocked` names it)."),
  TOOL_NOT_LOADED: e('The run has more tools than `tools.toolSearch` lists at once, and this deferrable tool has not been found by `tool_search` in the session yet (outcome `unavailable`).', 'Call `tool_search` for it first; it stays callable for the rest of the session.'),
  APPROVAL_DENIED: e('The operator denied the approval; the denial is final.', 'Do not retry the same call.'),
  APPROVAL_UNAVAILABLE: e('A hook asked for an approval, but the kernel has no approval surface.', 'Give `createKernel` an `approvals` surface, or change the hook.'),
  APPROVAL_TIMED_OUT: e('Nobody decided the approval in time (the request\'s `timeoutMs`, default 120 s).', 'Decide sooner, or raise the hook\'s approval timeout.'),
  APPROVAL_CANCELLED: e('The approval surface answered `cancelled`.', 'Nothing, unless unintended.'),
  APPROVAL_FAILED: e('The approval surface threw, answered garbage, or chose a decision it was not offered.', "Fix the embedding host's approval surface."),
  APPROVAL_VOID: e('The tool, the params or the sandbox changed between approval and execution.', 'Ask again: the approval covered something else.'),
  PARAMS_CHANGED_AFTER_APPROVAL: e('Hooks changed params a trusted approval covered, without asking again.', 'Order the hooks so rewrites come before approvals, or re-approve.'),
};

/** `KernelError.code`: the plugin host's errors (plugin status `lastError.code`, thrown by host APIs). */
export const KERNEL_ERRORS: Catalog<KernelErrorCode> = {
  PLUGIN_CRASHED: e('The plugin process exited or its channel broke.', "Its stderr lines (`plugin:<id>` in the log) say why; the host restarts it up to 3 times in 5 minutes."),
  PLUGIN_TIMEOUT: e('A call to the plugin passed its deadline.', 'Raise `timeouts.callMs` / `maxCallMs`, or report progress from long tools.'),
  PLUGIN_UNRESPONSIVE: e('The plugin missed a deadline and did not answer the liveness `$/ping` within `pingMs`: its event loop is wedged.', 'Find the blocking work in the plugin; the host restarts it.'),
  PLUGIN_LOCATION_REFUSED: e("The plugin's code, manifest, working directory or an argv file lies inside an agent workspace or sandbox mount, where an agent could change it.", 'Install the plugin outside every workspace (a global install, /opt/...); `allowInsideWorkspace` only while developing it.'),
  CONFINEMENT_UNAVAILABLE: e('The plugin declares confinement, but bubblewrap is missing or cannot create namespaces here, and `confinement.whenUnavailable` refuses it.', 'Install bubblewrap (Debian: `bubblewrap`), or set `confinement.whenUnavailable` to `unconfined` (docs/confinement.md).'),
  CONFINEMENT_REFUSED: e('A third-party plugin declares no confinement and `confinement.requireDeclaration` is set.', 'Add a `confinement` block to its manifest, or set `dangerouslyUnconfined` on its entry.'),
  CONFINEMENT_DENIED: e('A confined plugin tried something its manifest does not declare (a path, a connection, a process); the message names the plugin and what it tried.', "Declare it in the plugin's manifest `confinement`, if the plugin should be allowed to."),
  HANDSHAKE_FAILED: e('The plugin did not answer the handshake in time (`handshakeMs`, 10 s) or answered it badly.', 'Start it by hand to see its output; do slow set-up after the handshake.'),
  VERSION_MISMATCH: e('The plugin and the kernel share no protocol version; the message names both.', 'Use a plugin build that speaks the kernel\'s protocol, or upgrade the kernel.'),
  CAPABILITY_NOT_SUPPORTED: e('The kernel needed a capability the plugin did not declare (a backend operation, a listChanged notification).', 'Declare the capability in the plugin, or do not rely on it.'),
  PLUGIN_FAILED: e('The plugin crashed too often, or failed permanently; it is not restarted.', "`pincer plugins` shows the last error; fix it and restart the kernel."),
  PLUGIN_NOT_FOUND: e('No plugin with that id is configured.', 'Check the id against `plugins[]` in the config.'),
  PLUGIN_NOT_READY: e('The plugin is starting or restarting.', 'Retry shortly.'),
  PLUGIN_STOPPED: e('The plugin (or the kernel) is stopped.', 'Start the kernel again.'),
  MESSAGE_TOO_LARGE: e('A message passed `maxMessageBytes` (8 MiB).', 'Send less per message (paginate), or raise `maxMessageBytes` for the plugin.'),
  FRAMING_ERROR: e('The plugin wrote a line that is not a JSON-RPC message on its channel (with stdio transport, anything on stdout).', 'Log to stderr; with `transport: "stdio"` nothing but protocol may reach stdout.'),
  SPAWN_FAILED: e('The plugin process could not be started (missing file, interpreter or permission).', "Check the entry's `module` / `command` (`pincer config check` judges them)."),
  INVALID_CONFIG: e("A plugin entry is invalid (bad id, duplicate id, unknown core tool in `coreTools`, ...).", '`pincer config check` names the path.'),
  INVALID_MANIFEST: e("The plugin's `pincer-plugin.json` is unreadable, invalid, or names another id or protocol.", 'Regenerate it from the plugin (`npm run build` in the template), or drop `manifest` / `lazy`.'),
  INVALID_RESULT: e('The plugin answered with a result that fails the protocol schema.', 'Fix the plugin: `protocol/schema/v1.json` has every result\'s shape.'),
  CANCELLED: e('The request was cancelled.', 'Nothing, unless unintended.'),
  TOOL_NOT_FOUND: e('The plugin says it has no tool by that name.', "The plugin's tool list changed: restart it, or check its manifest."),
  TOOL_FAILED: e('The plugin answered a tool call with an error.', "Read the message; the plugin's log has the rest."),
  WORKSPACE_ERROR: e('A workspace operation for the plugin failed; `data.code` is a workspace code (below).', 'See the workspace code.'),
  PLUGIN_ERROR: e('The plugin answered with an error the host has no better code for.', "Read the message and the plugin's log."),
};

/** `KernelUsageError.code`: the embedding API used out of order or with bad arguments (thrown). */
export const KERNEL_USAGE_ERRORS: Catalog<KernelUsageErrorCode> = {
  KERNEL_NOT_STARTED: e('`assembleTools` before `start()` resolved.', 'Await `kernel.start()` first.'),
  KERNEL_STOPPED: e('`start`, `assembleTools` or `execute` after `stop()`.', 'Create a new kernel.'),
  RUN_CONFLICT: e('A `runId` reused for another agent or session.', 'Use a fresh `runId` per run.'),
  INVALID_CALL: e('`execute` with a name that is not a string, or options that are not what they claim.', 'Pass a tool name string and plain options.'),
};

/** `ProviderToolError.code`: a tool the provider adapters (`toOpenAITools`, ...) cannot send (thrown). */
export const PROVIDER_TOOL_ERRORS: Catalog<ProviderToolErrorCode> = {
  INVALID_TOOL_NAME: e("A tool's name breaks the provider's function-name rule; renaming it would leave the call unroutable.", 'Rename the tool in its plugin (or leave it out of that provider\'s list).'),
};

/** `ConfigError.code` (and `pincer config check`). */
export const CONFIG_ERRORS: Catalog<ConfigErrorCode> = {
  CONFIG_INVALID: e('The config file is not JSON (comments allowed) or fails the schema; `issues` lists each problem with its path.', '`pincer config check FILE` prints every problem; fix each path.'),
  CONFIG_NOT_FOUND: e('The config file named by `--config` or `$PINCER_CONFIG` does not exist.', 'Fix the path, or run `pincer init` to write one.'),
  CONFIG_UNREADABLE: e('The config file exists but cannot be read.', 'Check its permissions.'),
};

/** Workspace codes: `data.code` of a `WorkspaceError` (-32008), and a file tool's `error.code`. */
export const WORKSPACE_ERRORS: Catalog<WorkspaceErrorCode> = {
  PATH_OUTSIDE_MOUNT: e('The path resolves (through `..` or symbolic links) outside the workspace or mount.', 'Use a path inside the workspace.'),
  PATH_NOT_ADMITTED: e('The path is outside every admitted mapping, is a mount root being moved or removed, or changed between check and use.', 'Use a path inside the workspace; retry if another process was changing it.'),
  READ_ONLY_MOUNT: e('A write to a read-only mount (`workspaceAccess: "ro"`, a `:ro` bind, skills).', 'Write elsewhere, or give the sandbox `rw` access.'),
  NOT_FOUND: e('No file or folder at that path.', 'Check the path (`ls`).'),
  NOT_A_FILE: e('The path is a folder (or another non-file) where a file was expected.', 'Name a file.'),
  NOT_A_DIRECTORY: e('The path is a file where a folder was expected.', 'Name a folder.'),
  FILE_TOO_LARGE: e('The file is larger than the read cap.', 'Read a slice (`offset` / `limit`), or use `exec`.'),
  POLICY_PATH_MISMATCH: e('The file a checked path named was swapped before it was opened.', 'Retry; something else is changing the workspace.'),
  EXEC_NOT_FOUND: e('The command to run was not found in the sandbox.', 'Install it in the sandbox image, or use another command.'),
  EXEC_TIMEOUT: e('The command ran past its timeout and was killed with its process group.', 'Raise the call\'s `timeout`, or run it with `background: true`.'),
  IO_ERROR: e('The file system or the backend failed (also: no plugin serves the session\'s sandbox backend).', 'Read the message; for a backend problem, `pincer doctor`.'),
  PROTECTED_PATH: e('A change to a protected path: the loaded config, `.git`, `.pincer`, or `tools.fs.protectedPaths`.', 'Operators: keep the config outside the workspace, or edit `tools.fs.protectedPaths`. Agents cannot lift it.'),
  CONFLICT: e('The file changed since it was read (`expectVersion`), or exists (`createOnly`).', 'Read it again and redo the change.'),
  HARD_LINKED: e('A regular file with more than one hard link, which could reach outside the mount.', 'Replace the link with a copy; docker may allow them with `allowHardLinks`.'),
  SECURITY_VIOLATION: e("The sandbox's settings failed the security validation (a dangerous bind, network, profile...).", '`pincer config check` names the setting and its `dangerouslyAllow...` override.'),
};

/** `data.detail.node` of a node plugin's ToolFailed answer, and the `nodes` tool's `error.code`. */
export const NODE_ERRORS: Catalog<NodeErrorCode> = {
  NODE_DISCONNECTED: e('The device went away (or its plugin stopped) while a command ran; the command may have partly run.', 'Check the node (`nodes` action `device_status`) before running it again.'),
  NODE_COMMAND_FAILED: e('The node ran the command and it failed; the message is the node\'s.', 'Read the message; fix the command\'s arguments or the device.'),
};

/** JSON-RPC error codes on the plugin wire (`protocol/v1/errors.ts`). */
export const PROTOCOL_ERRORS: Catalog<ProtocolErrorCodeName> = {
  ParseError: e('A line that is not JSON.', 'Write one JSON message per line (ndjson).'),
  InvalidRequest: e('A message that is not a JSON-RPC 2.0 request.', 'Send `{"jsonrpc":"2.0", ...}`.'),
  MethodNotFound: e('The receiver does not know the method.', 'Answer unknown methods with it; the kernel treats it as "not supported".'),
  InvalidParams: e("Params fail the method's schema.", 'Match `protocol/schema/v1.json`.'),
  InternalError: e('The receiver failed internally.', "Read the receiver's log."),
  PluginCrashed: e('The plugin died with the request in flight.', 'Fix the crash; the host restarts the plugin.'),
  HandshakeFailed: e('The handshake failed (bad answer, timeout, wrong shape).', 'Answer `handshake` first, within `handshakeMs`, with the required fields.'),
  VersionMismatch: e('No protocol version in common; the message names both sides\'.', 'Speak a version the kernel offers.'),
  PolicyDenied: e('A policy refused the operation.', 'See the policy\'s reason.'),
  ConfinementDenied: e('A confined plugin tried something its manifest does not declare (`CONFINEMENT_DENIED`).', "Declare it in the plugin's manifest `confinement`, if the plugin should be allowed to."),
  DirectGrantRefused: e("A backend would not answer a request on its direct channel (a session it does not hold, a grant that does not verify, too busy, a failure that is not a workspace refusal).", 'Send the same request through the kernel (`workspace/*`); the SDK does.'),
  DeadlineExceeded: e('The per-call deadline passed.', 'Report progress, or raise the deadline.'),
  CapabilityMissing: e('The receiver did not declare the capability the method needs.', 'Declare it in the handshake.'),
  MessageTooLarge: e('A message exceeded the size cap.', 'Send less per message.'),
  PluginNotReady: e('The plugin is not ready (before the handshake, restarting, stopped).', 'Retry after the handshake.'),
  WorkspaceError: e('A workspace operation failed; `data.code` is a workspace code.', 'See the workspace code.'),
  ToolFailed: e('A tool handler failed; `data.tool` names it.', "Read the message."),
  ToolNotFound: e('The named tool is not contributed by this plugin.', 'Call a tool the plugin declared.'),
  RequestCancelled: e('The sender cancelled the request with `$/cancelRequest`.', 'Nothing.'),
  TurnRefused: e('The kernel refused a `turns/*`, `run/*` or `sessions/*` request of a plugin (`data.reason` says why: a spawn past the depth limit, a foreign call token, a turn kind the plugin is not designated for, a cross-agent send the config does not open).', 'Designate the plugin for the turn kind, or change the config that refused it (docs/automations.md).'),
};

/** What either side's ndjson reader drops without failing the channel (`InvalidMessageError.code`). */
export const TRANSPORT_ERRORS: Catalog<InvalidMessageError['code']> = {
  INVALID_MESSAGE: e("A peer (a plugin, or the kernel as a plugin sees it) sent a JSON-RPC message the reader could not dispatch (a `$/cancelRequest` without an id, say); it is dropped, logged with the peer's name and a preview, and the stream goes on.", 'Fix the plugin: every message must have the shape `docs/protocol.md` gives for its method.'),
};

/** `SandboxError.code` beyond the workspace codes: a sandbox backend itself failing. */
export const SANDBOX_ERRORS: Catalog<Exclude<SandboxErrorCode, WorkspaceErrorCode>> = {
  CONFIG_INVALID: e("The backend's settings fail its schema.", '`pincer config check` names the path.'),
  BACKEND_UNAVAILABLE: e('The Docker engine (or the backend\'s service) cannot be reached.', 'Start the engine, or set `DOCKER_HOST`; `pincer doctor` checks it.'),
  IMAGE_MISSING: e('The sandbox image is not on the engine.', '`pincer sandbox image build`, or set `sandbox.docker.image` to an image that exists.'),
  SELF_TEST_FAILED: e('In a probe container the root or the skills were writable.', 'Use an image that keeps them read-only (`pincer sandbox image build`).'),
  SANDBOX_GONE: e('The sandbox container (or remote copy) vanished under a session.', 'Retry: the next call creates it afresh.'),
  HOST_KEY_REJECTED: e("The SSH server's host key is unknown or differs from the pinned one.", 'Verify the fingerprint out of band, then add it to known_hosts or pin `hostKey`.'),
  AUTH_FAILED: e('SSH authentication failed.', 'Check `user`, `privateKeyPath` or `agent`, and the server\'s authorized_keys.'),
  CANCELLED: e('The sandbox operation was cancelled.', 'Nothing, unless unintended.'),
  SYNC_FAILED: e('Copying the workspace to or from the SSH host failed.', 'Check the connection and the remote disk; the message names the file.'),
  SYNC_IN_PROGRESS: e('The first copy of a large workspace to the SSH host is still running in the background; the call did not wait past `sync.waitMs`.', 'Call again shortly; the copy goes on, and later syncs send only what changed.'),
  SETUP_FAILED: e('Preparing the sandbox (container, folders, user) failed.', 'Read the message; `pincer sandbox check`.'),
  SANDBOX_IN_USE: e('The container under this name runs another plan and was used moments ago: neither handed out nor removed.', 'Wait, or `pincer sandbox recreate --session S`.'),
  REGISTRY_CORRUPT: e("The docker backend's container registry file is unreadable.", 'Remove the file (its path is in the message); containers are found again by label.'),
  IMAGE_BUILD_FAILED: e('`pincer sandbox image build` failed.', "The engine's build output above says which step."),
};

/** Why the host refused one tool of a plugin (plugin status `rejectedTools`, `pincer tools`). */
export const TOOL_REJECTIONS: Catalog<ToolRejectionCode> = {
  INVALID_TOOL: e('A tool with a bad shape or name (`^[A-Za-z0-9_.-]{1,64}$`).', 'Fix the tool definition in the plugin.'),
  SCHEMA_TOO_COMPLEX: e('The tool\'s `inputSchema` passes the size, depth or node limits.', 'Simplify the schema (no `$ref` chains that multiply).'),
  DUPLICATE_TOOL: e('The plugin lists two tools of the same name.', 'Rename one.'),
  NAME_TAKEN: e('Another plugin already serves that name.', 'Rename the tool, or disable the other plugin for the agent.'),
  CORE_TOOL_NOT_DESIGNATED: e("A core tool's name (`read`, `exec`, ...) from a plugin that is not its designated family.", 'Rename it, or name it in the plugin entry\'s `coreTools`.'),
};

/** `PolicyInputError.code`: bad input to the SDK's policy primitives (thrown). */
export const POLICY_INPUT_ERRORS: Catalog<PolicyInputErrorCode> = {
  INVALID_TOOL_LIST: e('A tool list that is not an array of strings.', 'Pass an array of names.'),
  INVALID_POLICY: e('A policy that is not `{allow?, alsoAllow?, deny?}` of string arrays.', 'Pass that shape.'),
  INVALID_TOOL: e('A tool entry without a string name.', 'Pass `{ name }` objects.'),
  TOOL_META_FAILED: e('The tool-metadata resolver threw.', 'Fix the resolver passed in.'),
  INVALID_BIND_SPEC: e('A bind spec that is not `host:container[:options]`.', 'Write it in that form.'),
};

/** `pincer --json` error `code`, with the exit status it ends the process with. */
export const CLI_ERRORS: Catalog<CliErrorCode> = {
  USAGE: e('Unknown command or flag, missing or malformed argument.', "`pincer <command> --help`; unknown flags get a did-you-mean."),
  CONFIG: e('The config (or a policy expectations file) is missing, unreadable or invalid.', '`pincer config check` lists every problem with its path.'),
  CALL_FAILED: e('`pincer call`: the tool failed, returned an error or was blocked.', 'The outcome and code are printed; see the call codes above.'),
  UNKNOWN_TOOL: e('`explain` or `call` named a tool no enabled plugin contributes.', '`pincer tools` lists the run\'s tools.'),
  KERNEL: e('The kernel failed to start, assemble or stop.', 'The message says why; `pincer doctor` checks everything.'),
  UNHEALTHY: e('A health check failed: `plugins`, `sandbox check` or `doctor`.', 'Each failing line says its fix.'),
  UNSAFE_WORKSPACE: e('The run\'s workspace is `/`, the home directory or a folder holding it, and `--workspace` did not name it.', 'Run from a project folder, or pass `--workspace DIR` if you mean it.'),
  FILE_EXISTS: e('`init` or `plugin new` would write over an existing file or folder.', '`pincer init --force` (keeps a .bak), or choose another name or folder.'),
  EXPECTATION_FAILED: e('`pincer policy test`: a run\'s tools differ from the expectations file.', 'Each difference names the tool and the layer that decided; fix the config or the expectation.'),
  NOT_FOUND: e('A named thing does not exist, e.g. a task id `pincer tasks show` was given (exit 1).', "List what exists (`pincer tasks list`)."),
  INTERNAL: e('A bug in the CLI itself (exit 70).', 'Report it with the stack trace printed.'),
};

/** `RunContextError.code` and `HookFilterError.code`: a run the config cannot serve (thrown by `assembleTools`, `startTurn`). */
export const RUN_ERRORS: Catalog<RunContextErrorCode | HookFilterError['code']> = {
  UNKNOWN_AGENT: e('The run names an agent that `agents.list` does not have (ids compare case-insensitively); the message lists the configured ones.', 'Use a configured agent id (`--agent`), or add the agent to `agents.list`.'),
  MEMORY_WRITE_PATH_REQUIRED: e('A run with trigger `memory` did not name `memoryWritePath`, the one file it may append to.', 'Pass `memoryWritePath`, a workspace-relative file such as `memory/2030-01-01.md`.'),
  MEMORY_WRITE_PATH_INVALID: e('`memoryWritePath` is absolute, empty or leaves the workspace.', 'Give a file path relative to the workspace, inside it.'),
  INVALID_HOOK_FILTER: e("A plugin's `before_tool_call` hook names a tools filter entry that is no tool, core group or glob: every call its hook would judge fails closed (`POLICY_HOOK_FAILED`).", "Fix the filter in the plugin (the kernel's start log names each bad entry)."),
};

/** `SkillCommandError.code`: a skill's slash command that `toolSet.skills.dispatch` cannot run (thrown). */
export const SKILL_COMMAND_ERRORS: Catalog<SkillCommandErrorCode> = {
  UNKNOWN_SKILL: e('No skill of that name is available to this run (excluded, ineligible, or not there).', '`pincer skills list`; `pincer skills show NAME` says why a skill is excluded.'),
  NOT_USER_INVOCABLE: e('The skill sets `user-invocable: false`, so it is not a slash command.', 'Let the model use it, or set `user-invocable: true` in its SKILL.md.'),
  NOT_A_TOOL_COMMAND: e('The skill is not bound to a tool (`command-dispatch: tool`), so there is nothing to dispatch: its SKILL.md is for the model.', 'Give the skill to the model, or bind it with `command-dispatch: tool` and `command-tool`.'),
};

/** `data.reason` of a `TurnRefused` wire error (-32012): why the kernel refused a turn, session or task request. */
export const TURN_REFUSALS: Catalog<TurnRefusalReason> = {
  NO_TURN_RUNNER: e('No turn runner is registered, so no agent turn (subagent, send, cron run) can start.', 'The embedding host calls `kernel.registerTurnRunner`; from the CLI, `pincer serve --script FILE` or `pincer call --script FILE` registers the scripted runner (docs/automations.md).'),
  UNKNOWN_CALL: e("The request's call token is not one of this plugin's calls in flight.", 'Send requests only while handling the call, with its token.'),
  NOT_DESIGNATED: e('This plugin does not serve the core tool the request belongs to.', "Designate the plugin for that tool (`coreTools` in its entry), or use the bundled one."),
  SPAWN_DEPTH_EXCEEDED: e('The child would be deeper than `tools.subagents.maxSpawnDepth`.', 'Do the work in this run, or raise `maxSpawnDepth`.'),
  TOO_MANY_CHILDREN: e('The calling run already has the most subagents running at once (8).', 'Wait for one (`sessions_yield`), then spawn again.'),
  SESSION_NOT_VISIBLE: e('The session belongs to another agent, or does not exist.', 'Use a session of the calling agent (`sessions_list`).'),
  AGENT_TO_AGENT_DENIED: e('`tools.agentToAgent` does not allow a send between these two agents.', 'Open the pair in `tools.agentToAgent`, if it should be.'),
  JOB_TOOLS_REMOVED: e("None of the tools a cron job was granted is available to its agent any more, so the job's run would hold nothing.", 'Recreate the job with tools the agent has, or give the tools back.'),
  INVALID_REQUEST: e('A field of the request is missing or malformed; the message names it.', 'Fix the request.'),
  KERNEL_STOPPING: e('The kernel is shutting down; no new turn starts.', 'Nothing: start again with the next kernel.'),
};

/** `StoreError.code`: the embedded SQLite store of jobs, runs and tasks (each message names the database file). */
export const STORE_ERRORS: Catalog<StoreErrorCode> = {
  STORE_LOCKED: e('Another process holds the write lock past the busy timeout.', 'Stop the other kernel using the same state folder, or give each its own `PINCER_STATE_DIR`.'),
  STORE_CORRUPT: e('The file is not a database, or fails its integrity check.', 'Restore it from a backup, or move it aside to start empty (its jobs and tasks are then lost).'),
  STORE_FULL: e('The disk (or the database page limit) is full.', 'Free space on the disk that holds the state folder.'),
  STORE_READ_ONLY: e('The database file or its folder cannot be written.', 'Fix the permissions, or point `PINCER_STATE_DIR` at a writable folder.'),
  STORE_NEWER_SCHEMA: e('The file was written by a newer Pincer; opening it could lose its data.', 'Run the newer Pincer, or give this one another state folder.'),
  STORE_MIGRATION_FAILED: e('A schema migration step failed; the file keeps its previous schema.', 'Read the message; report it with the file kept as it is.'),
  STORE_IO: e('Another I/O failure of the database file.', 'Read the message; check the disk.'),
  STORE_CLOSED: e('The store was used after it was closed (the kernel stopped).', 'Nothing: a call raced the shutdown.'),
};

/** `code` of an `automations` (cron) tool error: a schedule that cannot run. */
export const SCHEDULE_ERRORS: Catalog<ScheduleErrorCode> = {
  SCHEDULE_INVALID: e('The schedule is not a time, an interval or a cron expression this scheduler reads; the message names the field.', 'Use ISO 8601 for `at`, milliseconds for `everyMs`, five cron fields for `expr`.'),
  SCHEDULE_NEVER_FIRES: e('The schedule has passed, or matches no time in the coming years.', 'Give a future time, or an expression that matches one.'),
  SCHEDULE_TOO_FREQUENT: e('The job would fire more often than the scheduler\'s refire gap (2 s) allows.', 'Schedule it less often.'),
};

/** `code` of an fs tool's error result beyond the workspace codes (`read`, `write`, `edit`, `apply_patch`). */
export const FS_TOOL_ERRORS: Catalog<FsToolErrorCode> = {
  BINARY_FILE: e('The file holds NUL bytes: `edit` and `apply_patch` change text files only.', 'Replace binary content with `write` and `encoding: "base64"`.'),
  NOT_UTF8: e('The file is not valid UTF-8, so `edit` or `apply_patch` would re-encode bytes nobody asked to change; the message gives the offset and line.', 'Convert it to UTF-8 first (`iconv` through `exec`), or replace it whole with `write` and `encoding: "base64"`.'),
  READ_ONLY_FILE: e('The file is read-only (its mode); it was not changed.', 'Leave it, or ask the user; the tool does not change modes.'),
  NO_MATCH: e("`edit`'s `oldText` is not in the file; the hint shows the nearest text.", 'Read the file again and copy the text exactly.'),
  AMBIGUOUS_MATCH: e('`oldText` occurs more than once and `replaceAll` is not set.', 'Give more surrounding text, or set `replaceAll`.'),
  NO_CHANGE: e('`oldText` and `newText` are identical.', 'Nothing to do.'),
  INVALID_ARGUMENT: e('An argument is malformed (bad base64, an unpaired surrogate, a patch too large, not a regular file); the message names it.', 'Fix that argument; nothing was changed.'),
  PATCH_PARSE_ERROR: e('The `apply_patch` text is not in the patch format; the message gives the line.', 'Write the patch in the format the tool describes.'),
  PATCH_CONFLICT: e('A hunk of the patch does not match the file as it is now; nothing was changed.', 'Read the file again and rebuild the hunk.'),
  JOURNAL_UNAVAILABLE: e("The undo journal a multi-file patch needs cannot be written (the fs plugin's data folder).", "Operators: check the plugin's data folder; meanwhile change one file per call."),
};

/** `code` of an error from the MCP bridge (`bundle-mcp`): a configured MCP server that cannot serve a call. */
export const MCP_BRIDGE_ERRORS: Catalog<LoginRequiredError['code'] | ServerUnavailableError['code'] | ServerConfigError['code']> = {
  MCP_LOGIN_REQUIRED: e('The HTTP server wants OAuth and no usable token is stored.', '`pincer mcp login SERVER` (docs/mcp.md).'),
  MCP_SERVER_UNAVAILABLE: e('The server is not started, crashed, is reconnecting or refused the connection.', '`pincer plugins` shows the server under `bundle-mcp` with its last error.'),
  MCP_SERVER_CONFIG: e("The server's entry under `mcp.servers` cannot be used as configured, e.g. its `bearerTokenEnv` variable is not set where pincer runs.", 'Set the variable (or fix the entry the message names) and restart.'),
};

/**
 * `code` of an error result from a kernel-served tool (`message`, `nodes`, `gateway`) beyond the
 * call and node codes. Their code is a plain string, so completeness is checked by the source
 * scan (error-class-scan.ts reads every `new FamilyToolError('CODE', …)`), not by the compiler.
 */
export const FAMILY_TOOL_ERRORS: Record<string, CatalogEntry> = {
  UNKNOWN_ACTION: e("The tool has no action of that name; the hint lists its actions.", 'Use one of the listed actions.'),
  UNKNOWN_CHANNEL: e('`message` named a channel no enabled plugin provides.', 'Use one of the channels the hint lists.'),
  CHANNEL_DENIED: e("The channel is out of the session's reach by policy; `details` names the layer and config key. Nothing was sent.", 'Operators: change the key named; the model cannot lift it.'),
  CHANNEL_UNAVAILABLE: e("The channel's plugin could not take the action (down, refused). Nothing was sent.", "`pincer plugins`; retry once the channel's plugin is ready."),
  CROSS_SESSION_DENIED: e("The session may send only on its own channel, and `message` named another (`tools.message.crossSession` is off for the agent). Nothing was sent.", 'Leave `channel` out; operators enable cross-session sends with `tools.message.crossSession`.'),
  DELIVERY_UNKNOWN: e('The channel did not confirm the action: it may or may not have reached its destination.', 'Check whether it arrived before sending it again.'),
  UNSUPPORTED_ACTION: e('The channel does not support that message action; the hint lists what it does.', 'Use a supported action, or another channel.'),
  BODY_TOO_LARGE: e("The message body passes the channel's size limit. Nothing was sent.", 'Shorten it, or split it into several messages.'),
  PARAMS_TOO_LARGE: e("The action's (or a node command's) parameters pass the size limit. Nothing was sent or ran.", 'Send less.'),
  UNKNOWN_NODE: e('`nodes` named a device that is not paired; the hint lists the paired ones.', 'Use a listed node id.'),
  NODE_COMMAND_UNSUPPORTED: e('The node does not offer that command; the hint lists what it offers.', 'Use an offered command.'),
  NODE_UNAVAILABLE: e('The node refused the command before acting (offline, busy). Nothing ran.', 'Retry later, or check the node (`device_status`).'),
  NODE_TIMEOUT: e('The node did not answer in time; the command may still be running.', 'Check the node before running it again.'),
  PAYLOAD_TOO_LARGE: e("The node's answer passes what the tool returns.", 'Ask the node for less (a narrower command or parameters).'),
  MEDIA_COMMAND_REFUSED: e('A generic command answered with media, which that surface does not carry.', 'Use the dedicated media action for the command.'),
  MEDIA_UNSUPPORTED: e('The node answered a media command with something other than a png, jpeg, gif or webp image in base64.', 'Fix the node plugin, or ask for a supported format.'),
  CONFIG_PATH_NOT_FOUND: e("`gateway` `config.get` was given a path the config does not have.", 'Leave `path` out for the whole config, or follow its keys (e.g. `tools.sandbox`).'),
  CONFIG_TOO_LARGE: e('The config (or subtree) asked for passes the answer size limit.', 'Ask for a narrower `path`, e.g. `tools`.'),
  SCHEMA_PATH_NOT_FOUND: e('`gateway` `config.schema` was given a path the config schema does not have.', 'Use `.` for the top level, then follow the listed keys.'),
  SCHEMA_TOO_LARGE: e('The schema at that path passes the answer size limit.', 'Look up one of its children.'),
};

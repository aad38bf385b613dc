export {
  REFERENCE_RELEASE,
  CORE_TOOL_SECTIONS,
  CORE_TOOL_DEFINITIONS,
  TOOL_NAME_ALIASES,
  HIDDEN_BY_DEFAULT,
  CHANNEL_MESSAGE_ACTION_NAMES,
  SANDBOX_DEFAULT_TOOL_ALLOW,
  SANDBOX_DEFAULT_TOOL_DENY,
  SANDBOX_DEFAULT_WORKDIR,
  SANDBOX_AGENT_WORKSPACE_MOUNT,
} from './reference-data.js';
export type { CoreToolDefinition, ToolProfileId } from './reference-data.js';
export {
  CORE_GROUP,
  CORE_GROUP_REFERENCE_ALIAS,
  PLUGINS_GROUP,
  BUNDLE_MCP_PLUGIN_ID,
  TOOL_PROFILE_IDS,
  CORE_TOOL_GROUPS,
  CORE_TOOL_PROFILES,
  isKnownCoreToolId,
  getCoreToolDefinition,
  isToolProfileId,
  resolveCoreToolProfilePolicy,
  listCoreToolSections,
} from './catalog.js';

/**
 * The core vocabulary as data: read off the reference release 2026.9.6 (shared/reference/catalog.json)
 * so reference configs keep their meaning. Generated once; edit with care: every derived
 * table (groups, profiles) in `catalog.ts` is computed from this list.
 */
import { FrozenMap } from './frozen-map.js';

export const REFERENCE_RELEASE = "2026.9.6";

/** One core tool: id, section, the profiles that include it, and whether it is in the all-core group. */
export interface CoreToolDefinition {
  readonly id: string;
  readonly sectionId: string;
  readonly description: string;
  readonly profiles: readonly ToolProfileId[];
  readonly inCoreGroup: boolean;
}

export type ToolProfileId = 'minimal' | 'coding' | 'messaging' | 'full';

/** Section order is also UI order. */
export const CORE_TOOL_SECTIONS: readonly { readonly id: string; readonly label: string }[] = [
  { id: "fs", label: "Files" },
  { id: "runtime", label: "Runtime" },
  { id: "web", label: "Web" },
  { id: "memory", label: "Memory" },
  { id: "sessions", label: "Sessions" },
  { id: "ui", label: "UI" },
  { id: "messaging", label: "Messaging" },
  { id: "automation", label: "Automation" },
  { id: "nodes", label: "Nodes" },
  { id: "agents", label: "Agents" },
  { id: "media", label: "Media" },
];

export const CORE_TOOL_DEFINITIONS: readonly CoreToolDefinition[] = [
  { id: "ls", sectionId: "fs", description: "List directory entries", profiles: ["coding"], inCoreGroup: false },
  { id: "read", sectionId: "fs", description: "Read file contents", profiles: ["coding"], inCoreGroup: false },
  { id: "write", sectionId: "fs", description: "Create or overwrite files", profiles: ["coding"], inCoreGroup: false },
  { id: "edit", sectionId: "fs", description: "Make precise edits", profiles: ["coding"], inCoreGroup: false },
  { id: "apply_patch", sectionId: "fs", description: "Patch files", profiles: ["coding"], inCoreGroup: false },
  { id: "exec", sectionId: "runtime", description: "Run shell now.", profiles: ["coding"], inCoreGroup: false },
  { id: "process", sectionId: "runtime", description: "Inspect/control exec sessions.", profiles: ["coding"], inCoreGroup: false },
  { id: "code_execution", sectionId: "runtime", description: "Run sandboxed remote analysis", profiles: ["coding"], inCoreGroup: true },
  { id: "secrets", sectionId: "runtime", description: "Request and manage write-only credentials", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "web_search", sectionId: "web", description: "Search the web", profiles: ["coding"], inCoreGroup: true },
  { id: "web_fetch", sectionId: "web", description: "Fetch web content", profiles: ["coding"], inCoreGroup: true },
  { id: "x_search", sectionId: "web", description: "Search X posts", profiles: ["coding"], inCoreGroup: true },
  { id: "memory_search", sectionId: "memory", description: "Semantic search", profiles: ["coding"], inCoreGroup: true },
  { id: "memory_get", sectionId: "memory", description: "Read memory files", profiles: ["coding"], inCoreGroup: true },
  { id: "sessions", sectionId: "sessions", description: "Session settings: label, pin, archive, groups", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "sessions_list", sectionId: "sessions", description: "List visible sessions; filters/previews.", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "sessions_history", sectionId: "sessions", description: "Read sanitized session history.", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "sessions_search", sectionId: "sessions", description: "Search past session transcripts.", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "conversations_list", sectionId: "sessions", description: "List exact external conversation addresses", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "conversations_send", sectionId: "sessions", description: "Send to an exact external conversation", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "conversations_turn", sectionId: "sessions", description: "Send and wait for a correlated external reply", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "sessions_send", sectionId: "sessions", description: "Run same-Gateway session/agent.", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "sessions_spawn", sectionId: "sessions", description: "Spawn hidden subagent (ephemeral) or visible work session (durable).", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "github_identity_status", sectionId: "sessions", description: "Inspect the effective GitHub identity and credential health", profiles: ["coding"], inCoreGroup: true },
  { id: "github_publish", sectionId: "sessions", description: "Publish the reconciled session worktree as a draft GitHub pull request", profiles: ["coding"], inCoreGroup: true },
  { id: "agents_wait", sectionId: "sessions", description: "Wait for collector subagents.", profiles: ["coding"], inCoreGroup: true },
  { id: "sessions_yield", sectionId: "sessions", description: "End turn to receive sub-agent results", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "subagents", sectionId: "sessions", description: "Background work: subagents, media gen, automation runs. list/cancel.", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "session_status", sectionId: "sessions", description: "Show session status/model/usage.", profiles: ["minimal", "coding", "messaging"], inCoreGroup: true },
  { id: "suggest_task", sectionId: "sessions", description: "Suggest follow-up work for operator approval.", profiles: ["coding"], inCoreGroup: true },
  { id: "dismiss_task", sectionId: "sessions", description: "Withdraw a pending task suggestion.", profiles: ["coding"], inCoreGroup: true },
  { id: "browser", sectionId: "ui", description: "Control web browser", profiles: [], inCoreGroup: true },
  { id: "screen", sectionId: "ui", description: "Drive operator web UI", profiles: ["coding"], inCoreGroup: true },
  { id: "theme", sectionId: "ui", description: "List, select, and create appearance themes", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "dashboard", sectionId: "ui", description: "Read and arrange the session dashboard", profiles: ["coding"], inCoreGroup: true },
  { id: "terminal", sectionId: "ui", description: "Use shared operator terminals with policy-governed input", profiles: ["coding"], inCoreGroup: true },
  { id: "portal", sectionId: "ui", description: "Expose local web apps through the gateway", profiles: ["coding"], inCoreGroup: true },
  { id: "canvas", sectionId: "ui", description: "Control node Canvas surfaces when the Canvas plugin is enabled", profiles: [], inCoreGroup: false },
  { id: "show_widget", sectionId: "ui", description: "Show an interactive widget on chat or an auto-fitting dashboard", profiles: [], inCoreGroup: true },
  { id: "message", sectionId: "messaging", description: "Send messages", profiles: ["messaging"], inCoreGroup: true },
  { id: "heartbeat_respond", sectionId: "automation", description: "Accept heartbeat outcomes for post-turn handling", profiles: [], inCoreGroup: true },
  { id: "automations", sectionId: "automation", description: "Schedule reminders, automations, wake events.", profiles: ["coding"], inCoreGroup: true },
  { id: "gateway", sectionId: "automation", description: "Update OpenClaw; read Gateway config/schema when permitted", profiles: ["minimal", "coding", "messaging"], inCoreGroup: true },
  { id: "plugins", sectionId: "automation", description: "Manage and reload plugins", profiles: ["coding"], inCoreGroup: true },
  { id: "openclaw", sectionId: "automation", description: "Delegate OpenClaw setup and repair", profiles: [], inCoreGroup: true },
  { id: "nodes", sectionId: "nodes", description: "Nodes + devices", profiles: [], inCoreGroup: true },
  { id: "computer", sectionId: "nodes", description: "Control the Gateway desktop or a paired computer", profiles: [], inCoreGroup: true },
  { id: "mobile_ui", sectionId: "nodes", description: "Observe and control a paired Android app", profiles: [], inCoreGroup: true },
  { id: "agents_list", sectionId: "agents", description: "List agents", profiles: [], inCoreGroup: true },
  { id: "get_goal", sectionId: "agents", description: "Get current thread goal", profiles: ["coding"], inCoreGroup: true },
  { id: "create_goal", sectionId: "agents", description: "Create a thread goal", profiles: ["coding"], inCoreGroup: true },
  { id: "update_goal", sectionId: "agents", description: "Complete or block a thread goal", profiles: ["coding"], inCoreGroup: true },
  { id: "progress_card", sectionId: "agents", description: "Maintain the session progress card", profiles: ["coding"], inCoreGroup: true },
  { id: "ask_user", sectionId: "agents", description: "Ask the user and wait for an answer.", profiles: ["coding", "messaging"], inCoreGroup: true },
  { id: "skill_workshop", sectionId: "agents", description: "Author reusable skills under the available tool's publication and review policy. Read one complete artifact when it fits the model budget.", profiles: ["coding"], inCoreGroup: true },
  { id: "view_image", sectionId: "media", description: "Image understanding", profiles: ["coding"], inCoreGroup: true },
  { id: "image_generate", sectionId: "media", description: "Image generation", profiles: ["coding"], inCoreGroup: true },
  { id: "music_generate", sectionId: "media", description: "Music generation", profiles: ["coding"], inCoreGroup: true },
  { id: "video_generate", sectionId: "media", description: "Video generation", profiles: ["coding"], inCoreGroup: true },
  { id: "tts", sectionId: "media", description: "Text-to-speech conversion", profiles: [], inCoreGroup: true },
  { id: "pdf", sectionId: "media", description: "PDF reading and extraction", profiles: [], inCoreGroup: true },
];

/** Extra literal profile entries that are not core tool ids (MCP bundle tools pass these profiles). */
export const PROFILE_EXTRA_ALLOW: Readonly<Record<ToolProfileId, readonly string[]>> = {
  minimal: [],
  coding: ["bundle-mcp"],
  messaging: ["bundle-mcp"],
  full: ["*"],
};

export const TOOL_NAME_ALIASES: ReadonlyMap<string, string> = new FrozenMap<string, string>([
  ["bash", "exec"],
  ["apply-patch", "apply_patch"],
  ["cron", "automations"],
]);

/** Tools the catalog lists but hides from default surfaces. */
export const HIDDEN_BY_DEFAULT: readonly string[] = ["agents_wait", "github_identity_status", "github_publish"];

/** The closed message-action vocabulary, in the reference order. No plugin can add to it. */
export const CHANNEL_MESSAGE_ACTION_NAMES: readonly string[] = Object.freeze(["send", "broadcast", "poll", "poll-vote", "react", "reactions", "read", "edit", "unsend", "reply", "sendWithEffect", "renameGroup", "setGroupIcon", "addParticipant", "removeParticipant", "leaveGroup", "sendAttachment", "delete", "pin", "unpin", "list-pins", "permissions", "thread-create", "thread-list", "thread-reply", "search", "sticker", "sticker-search", "member-info", "role-info", "emoji-list", "emoji-upload", "sticker-upload", "role-add", "role-remove", "channel-info", "channel-list", "channel-create", "conversation-open", "channel-edit", "channel-delete", "channel-move", "category-create", "category-edit", "category-delete", "topic-create", "topic-edit", "voice-status", "event-list", "event-create", "timeout", "kick", "ban", "set-profile", "set-presence", "download-file", "upload-file"]);

export const SANDBOX_DEFAULT_TOOL_ALLOW: readonly string[] = Object.freeze(["exec", "process", "read", "ls", "write", "edit", "apply_patch", "view_image", "sessions_list", "sessions_history", "sessions_search", "sessions_send", "sessions_spawn", "sessions_yield", "subagents", "session_status"]);

export const SANDBOX_DEFAULT_TOOL_DENY: readonly string[] = Object.freeze(["browser", "canvas", "computer", "mobile_ui", "nodes", "automations", "gateway", "feishu", "googlechat", "nostr", "buzz", "msteams", "mattermost", "nextcloud-talk", "matrix", "raft", "a2a", "line", "zalo", "clickclack", "zalouser", "sms", "synology-chat", "tlon", "discord", "imessage", "irc", "reef", "signal", "slack", "telegram", "twitch", "whatsapp"]);

export const SANDBOX_DEFAULT_WORKDIR = "/workspace";
export const SANDBOX_AGENT_WORKSPACE_MOUNT = "/agent";

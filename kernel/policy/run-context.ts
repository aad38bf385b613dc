/** Who and what a run is for: everything the policy layers and the sandbox decision read. */
export interface RunSender {
  id?: string;
  username?: string;
  e164?: string;
  name?: string;
}

export type RunTrigger = 'user' | 'cron' | 'background' | 'memory' | (string & {});

export interface RunContext {
  /** The run's id: loop history and allow-always approvals last as long as the run, across assemblies. */
  runId?: string;
  /** Agent id; defaults to the config's default agent. */
  agentId?: string;
  sessionKey?: string;
  sender?: RunSender;
  /** Channel, group or space id (selects `groups.<id>`). */
  groupId?: string;
  /**
   * The message channel this session talks on (a channel id a channel plugin declares): the
   * `message` tool sends there, and anywhere else only if `tools.message.crossSession` allows.
   * Defaults to `tools.message.defaultChannel`, else the only enabled channel.
   */
  channel?: string;
  provider?: string;
  model?: string;
  trigger?: RunTrigger;
  /** 0 (or absent) for a main run; n for a sub-session n levels down. */
  subagentDepth?: number;
  /** The parent run's effective allowlist; a child never gets more. */
  inheritedAllowlist?: readonly string[];
  /** A runtime cap from the host (cron job `toolsAllow`, a hook's narrowing); `[]` disables all. */
  toolsAllow?: readonly string[];
}

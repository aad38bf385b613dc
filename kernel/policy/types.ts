/**
 * Shapes shared by the policy core: a policy, a pipeline step, and the audit that
 * lets an operator (and the model, via the call path) learn why a tool is missing.
 */

/** An allow/deny pair. An empty or absent allow list allows everything not denied. */
export interface ToolPolicy {
  allow?: string[];
  deny?: string[];
}

/** Names of the pipeline layers, in the order they run. */
export type PolicyLayerId =
  | 'profile'
  | 'providerProfile'
  | 'global'
  | 'globalProvider'
  | 'agent'
  | 'agentProvider'
  | 'group'
  | 'sender'
  | 'sandbox'
  | 'subagent'
  | 'inherited'
  | 'runtime';

/** One layer of the pipeline, resolved from config for one run. */
export interface PolicyStep {
  layer: PolicyLayerId;
  /** Operator-facing label, e.g. `tools.profile (coding)` or `agents.main.tools.allow`. */
  label: string;
  policy: ToolPolicy | undefined;
  /** Config keys an operator edits to change this layer's allow and deny lists. */
  configKeys?: { allow?: string; deny?: string; alsoAllow?: string };
  /**
   * `cap` layers (inherited, runtime) read an explicit empty allow list as "nothing",
   * where ordinary layers read it as "no restriction".
   */
  kind?: 'policy' | 'cap';
  /** The operator-written lists behind this layer, each with its config key (for warnings). */
  lists?: readonly ConfigList[];
}

/** One list an operator wrote (`tools.alsoAllow`, `groups.team.tools.deny`, ...), as a layer uses it. */
export interface ConfigList {
  key: string;
  kind: 'allow' | 'deny';
  entries: readonly string[];
}

/** Why one tool left the surface: the layer, the rule kind and the entries that decided it. */
export interface PolicyRemoval {
  tool: string;
  layer: PolicyLayerId;
  label: string;
  ruleKind: 'allow' | 'deny';
  /** Deny entries that matched (deny), or the allow list that did not admit the tool (allow). */
  matchedRules: string[];
  /** Config key to edit to bring the tool back. */
  configKey?: string;
  /**
   * For a removal by a profile: the list that extends it (`tools.alsoAllow`, an agent's, a
   * provider's). A profile is a name, not a list, so this is where a tool is added back.
   */
  alsoAllowKey?: string;
}

/** The answer to "why is this tool present or absent?". */
export type ToolExplanation =
  | { tool: string; present: true; layersPassed: PolicyLayerId[] }
  | { tool: string; present: false; removal: PolicyRemoval }
  | {
      tool: string;
      present: false;
      unknown: true;
      /** Whether the name is a core tool id (a plugin that provides it may simply not be enabled). */
      coreTool?: boolean;
      /** Had a plugin provided it, the layer that would still remove it; absent if policy would allow it. */
      wouldBeRemovedBy?: PolicyRemoval;
    };

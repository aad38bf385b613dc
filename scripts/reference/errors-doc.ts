/** docs/reference/errors.md, rendered from the catalog (`error-catalog.ts`). */
import { CLI_EXIT_CODES } from '../../cli/errors.js';
import { ProtocolErrorCodes } from '../../protocol/index.js';
import {
  CALL_CODES, CALL_OUTCOMES, CLI_ERRORS, CONFIG_ERRORS, FAMILY_TOOL_ERRORS, FS_TOOL_ERRORS, KERNEL_ERRORS, KERNEL_USAGE_ERRORS, MCP_BRIDGE_ERRORS, NODE_ERRORS, POLICY_INPUT_ERRORS,
  PROTOCOL_ERRORS, PROVIDER_TOOL_ERRORS, RUN_ERRORS, SANDBOX_ERRORS, SCHEDULE_ERRORS, SKILL_COMMAND_ERRORS, STORE_ERRORS, TOOL_REJECTIONS, TRANSPORT_ERRORS, TURN_REFUSALS,
  WORKSPACE_ERRORS, type CatalogEntry,
} from './error-catalog.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function table(entries: Record<string, CatalogEntry>, key: string, extra?: { header: string; value: (code: string) => string }): string[] {
  return [
    `| ${key} |${extra ? ` ${extra.header} |` : ''} cause | fix |`,
    `| --- |${extra ? ' --- |' : ''} --- | --- |`,
    ...Object.entries(entries).map(([code, { cause, fix }]) => `| \`${code}\` |${extra ? ` ${extra.value(code)} |` : ''} ${cell(cause)} | ${cell(fix)} |`),
  ];
}

interface Section { title: string; intro: string; entries: Record<string, CatalogEntry>; key?: string; extra?: { header: string; value: (code: string) => string } }

const SECTIONS: Section[] = [
  { title: 'Call outcomes', intro: 'Every call through a tool set resolves to one result; `outcome` says how it ended (`isError` for all but `ok`).', entries: CALL_OUTCOMES, key: 'outcome' },
  { title: 'Call codes', intro: "The `code` of a failed call result that the kernel gives. A tool's own codes (the workspace codes below, say) pass through unchanged, and so do the plugin host's (kernel errors, below: `PLUGIN_UNRESPONSIVE`, `PLUGIN_LOCATION_REFUSED`, ...).", entries: CALL_CODES },
  { title: 'Workspace codes', intro: "`data.code` of a `WorkspaceError` on the wire, and the `code` of a file tool's error result.", entries: WORKSPACE_ERRORS },
  { title: 'Kernel errors', intro: "`KernelError.code`, the plugin host's errors: a plugin's `lastError.code` in `pincer plugins`, and errors of the host API.", entries: KERNEL_ERRORS },
  { title: 'File tool errors', intro: "The `code` of an fs tool's error result (`read`, `write`, `edit`, `apply_patch`) beyond the workspace codes.", entries: FS_TOOL_ERRORS },
  { title: 'Kernel tool errors', intro: 'The `code` of an error result from a tool the kernel serves itself (`message`, `nodes`, `gateway`), beyond the call and node codes.', entries: FAMILY_TOOL_ERRORS },
  { title: 'Kernel usage errors', intro: '`KernelUsageError.code`, thrown when the embedding API is misused (everything a model or plugin causes is a result instead).', entries: KERNEL_USAGE_ERRORS },
  { title: 'Run errors', intro: "`RunContextError.code` and `HookFilterError.code`: a run the config cannot serve, thrown when the run is assembled (`assembleTools`, a turn's tool set), and a plugin hook filter the kernel refuses at start.", entries: RUN_ERRORS },
  { title: 'Skill command errors', intro: "`SkillCommandError.code`, thrown by `toolSet.skills.dispatch` for a skill's slash command it cannot run.", entries: SKILL_COMMAND_ERRORS },
  { title: 'Turn refusals', intro: "`data.reason` of a `TurnRefused` wire error: why the kernel refused a plugin's turn, session or task request (the sessions and automations tools show it in their error result).", entries: TURN_REFUSALS },
  { title: 'Store errors', intro: '`StoreError.code`: the embedded SQLite store that keeps jobs, runs and tasks. Each message names the database file; none of them loses committed data.', entries: STORE_ERRORS },
  { title: 'Schedule errors', intro: 'The `code` of an `automations` (`cron`) tool error for a schedule that cannot run.', entries: SCHEDULE_ERRORS },
  { title: 'MCP bridge errors', intro: 'The `code` of an error from a server the `mcp` block brings in (plugin `bundle-mcp`).', entries: MCP_BRIDGE_ERRORS },
  { title: 'Provider adapter errors', intro: '`ProviderToolError.code`, thrown by `toOpenAITools`, `toAnthropicTools` and `toGeminiTools` before any request is sent.', entries: PROVIDER_TOOL_ERRORS },
  { title: 'Config errors', intro: '`ConfigError.code`, from `loadConfig` and the CLI.', entries: CONFIG_ERRORS },
  { title: 'Refused tools', intro: "Why the host dropped one tool of a plugin (its other tools stay): `rejectedTools` in a plugin's status.", entries: TOOL_REJECTIONS },
  { title: 'Sandbox backend errors', intro: "`SandboxError.code` beyond the workspace codes: a backend failing as a whole (`pincer sandbox check`, `pincer doctor`).", entries: SANDBOX_ERRORS },
  { title: 'Node errors', intro: "`data.detail.node` of a node plugin's `ToolFailed` answer to `node/invoke`, and the `nodes` tool's error `code`.", entries: NODE_ERRORS },
  { title: 'Wire errors', intro: 'JSON-RPC error codes on the plugin channel; Pincer reserves -32050 … -32000.', entries: PROTOCOL_ERRORS, extra: { header: 'number', value: (code) => String(ProtocolErrorCodes[code as keyof typeof ProtocolErrorCodes]) } },
  { title: 'Dropped messages', intro: "A message the channel's reader could not dispatch: dropped and logged, the channel goes on.", entries: TRANSPORT_ERRORS },
  { title: 'Policy input errors', intro: "`PolicyInputError.code`, thrown by the SDK's policy primitives on malformed input.", entries: POLICY_INPUT_ERRORS },
  { title: 'CLI errors', intro: 'The `code` of `pincer ... --json` error output, and the exit status it ends with.', entries: CLI_ERRORS, extra: { header: 'exit', value: (code) => String(CLI_EXIT_CODES[code as keyof typeof CLI_EXIT_CODES]) } },
];

export function renderErrorsDoc(): string {
  const lines = [
    '<!-- Generated from scripts/reference/error-catalog.ts by scripts/reference/build.ts; do not edit. Regenerate: node dist/scripts/reference/build.js --write -->',
    '# Error catalog',
    '',
    'Every error code Pincer gives: its cause and its fix. The lists are checked against the code\'s own',
    'code lists by a test, so a code cannot be added without its entry here.',
    '',
    ...SECTIONS.map((s) => `- [${s.title}](#${s.title.toLowerCase().replace(/ /g, '-')})`),
  ];
  for (const section of SECTIONS) lines.push('', `## ${section.title}`, '', section.intro, '', ...table(section.entries, section.key ?? 'code', section.extra));
  return `${lines.join('\n')}\n`;
}

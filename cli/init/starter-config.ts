/**
 * The commented starter config `pincer init` writes. Comments are allowed in config files
 * (the loader blanks them), and the `$schema` line lets editors complete and validate the rest.
 */

export type Profile = 'minimal' | 'coding' | 'messaging' | 'full';
export type SandboxMode = 'off' | 'non-main' | 'all';
export type Backend = 'docker' | 'ssh';

export const PROFILES: readonly Profile[] = ['minimal', 'coding', 'messaging', 'full'];
export const SANDBOX_MODES: readonly SandboxMode[] = ['off', 'non-main', 'all'];
export const BACKENDS: readonly Backend[] = ['docker', 'ssh'];

export interface SshTarget {
  user: string;
  host: string;
  port?: number;
  privateKeyPath?: string;
}

export interface StarterChoices {
  profile: Profile;
  sandbox: SandboxMode;
  /** Only when the sandbox mode is not `off`. */
  backend?: Backend;
  ssh?: SshTarget;
}

/** One plugin entry as the config holds it. */
export type PluginEntry = Record<string, unknown> & { id: string };

export interface StarterInput extends StarterChoices {
  /** The agent's workspace as the file names it: relative to the file's folder ("." when it is there). */
  workspace: string;
  /** The `file://` URL of the published config JSON Schema. */
  schemaUrl: string;
  /** Entries of the bundled plugins, absolute paths into the installed package. */
  plugins: PluginEntry[];
}

const PROFILE_NOTES: Record<Profile, string> = {
  minimal: 'only session_status and gateway',
  coding: 'the core coding tools (ls, read, write, edit, apply_patch, exec, process, ...)',
  messaging: 'messaging and session tools',
  full: 'every tool any enabled plugin serves',
};

/** `{ "id": "fs", "module": "…" }` on one line, values JSON-escaped. */
function entryLine(entry: PluginEntry): string {
  return `    { ${Object.entries(entry).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')} }`;
}

function sandboxLines(choices: StarterChoices): string[] {
  if (choices.sandbox === 'off') {
    return [
      '    // Sandbox mode: "off" runs every tool on this host, inside the workspace. "non-main" runs',
      '    // every session but the agent\'s main one in a backend (docker or ssh); "all" runs every one.',
      '    "defaults": { "sandbox": { "mode": "off" } },',
    ];
  }
  const note = choices.backend === 'docker'
    ? ['    // The docker backend needs its image: `pincer sandbox image build`; then `pincer sandbox check`.']
    : ['    // The ssh backend verifies the host key against ~/.ssh/known_hosts (or a pinned', '    // "hostKey" in its plugin settings); `pincer sandbox check` tries the connection.'];
  return [
    `    // Sandbox mode "${choices.sandbox}": ${choices.sandbox === 'all' ? 'every session runs' : "every session but the agent's main one runs"} in the ${choices.backend} backend.`,
    ...note,
    `    "defaults": { "sandbox": { "mode": "${choices.sandbox}", "backend": "${choices.backend}" } },`,
  ];
}

/** The file's text: JSON with `//` comments, ending in a newline. */
export function renderStarterConfig(input: StarterInput): string {
  const plugins = input.plugins.map(entryLine).join(',\n');
  return [
    `// Pincer config written by \`pincer init\` (profile ${input.profile}, sandbox ${input.sandbox}).`,
    '// Check it with `pincer doctor`; see what a run gets with `pincer tools` and `pincer explain TOOL`.',
    "// Relative paths resolve against this file's folder. Comments like these are allowed.",
    '{',
    `  "$schema": ${JSON.stringify(input.schemaUrl)},`,
    '',
    '  // Each plugin runs as its own process, from the installed Pincer package. Plugin code must',
    '  // live outside every agent workspace: the kernel refuses code an agent could edit.',
    '  "plugins": [',
    plugins,
    '  ],',
    '',
    '  // Every plugin runs under bubblewrap with what its manifest declares (docs/confinement.md).',
    '  // A third-party plugin that declares nothing, or asks to run unconfined, is refused; set',
    '  // "dangerouslyUnconfined": true on its entry to run it anyway.',
    '  "confinement": { "requireDeclaration": true },',
    '',
    '  "tools": {',
    '    // The profile: minimal, coding, messaging or full (a name, not a list).',
    `    // "${input.profile}" keeps ${PROFILE_NOTES[input.profile]}.`,
    '    // A plugin\'s own tools reach a profiled run only when allowed: "alsoAllow": ["my_tool"]',
    '    // (or the plugin id for all of its tools).',
    `    "profile": "${input.profile}",`,
    '    // Tools no run may have, whatever else allows them: names, globs, group:runtime, plugin ids.',
    '    "deny": []',
    '  },',
    '',
    '  "agents": {',
    ...sandboxLines(input),
    '    "list": [',
    `      // ${input.workspace === '.' ? '"." is this file\'s folder.' : 'Relative to this file\'s folder.'} The config file, when inside it, is protected: no tool may change it.`,
    `      { "id": "main", "default": true, "workspace": ${JSON.stringify(input.workspace)} }`,
    '    ]',
    '  }',
    '}',
    '',
  ].join('\n');
}

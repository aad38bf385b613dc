/** docs/reference/profiles-and-groups.md, rendered from the core vocabulary (`protocol/vocabulary`). */
import {
  CORE_GROUP, CORE_GROUP_REFERENCE_ALIAS, CORE_TOOL_DEFINITIONS, CORE_TOOL_GROUPS, CORE_TOOL_PROFILES, HIDDEN_BY_DEFAULT, PLUGINS_GROUP,
  SANDBOX_DEFAULT_TOOL_ALLOW, SANDBOX_DEFAULT_TOOL_DENY, TOOL_NAME_ALIASES, TOOL_PROFILE_IDS, listCoreToolSections,
} from '../../protocol/vocabulary/index.js';

const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');

export function renderProfilesDoc(): string {
  const lines = [
    '<!-- Generated from protocol/vocabulary by scripts/reference/build.ts; do not edit. Regenerate: node dist/scripts/reference/build.js --write -->',
    '# Profiles, groups and core tools',
    '',
    'What each `tools.profile` keeps and what each `group:` entry stands for, from the core vocabulary',
    "the kernel uses (the reference release's catalog). A core tool is reached only when a plugin serves",
    'it: the bundled `fs` serves `ls`, `read`, `write`, `edit`, `apply_patch`; `shell` serves `exec`, `process`.',
    '',
    '## Profiles',
    '',
    'A profile is a fixed list, named by a string: it is not edited, only extended with `alsoAllow`',
    '(a plugin\'s own tools reach a profiled run only that way). `full` allows everything.',
    '',
    '| profile | keeps |',
    '| --- | --- |',
    ...TOOL_PROFILE_IDS.map((id) => `| \`${id}\` | ${code(CORE_TOOL_PROFILES.get(id)!.allow)} |`),
    '',
    '## Groups',
    '',
    `\`${CORE_GROUP}\` (also \`${CORE_GROUP_REFERENCE_ALIAS}\`, the reference's name) holds every core tool marked for it; \`${PLUGINS_GROUP}\``,
    'stands for every plugin tool that is not core; a plugin id stands for all of that plugin\'s tools.',
    '',
    '| group | tools |',
    '| --- | --- |',
    ...[...CORE_TOOL_GROUPS.entries()].filter(([name]) => name !== CORE_GROUP_REFERENCE_ALIAS).map(([name, tools]) => `| \`${name}\` | ${code(tools)} |`),
    '',
    '## Core tools',
    '',
    '| tool | section | profiles | in `group:core` | description |',
    '| --- | --- | --- | --- | --- |',
    ...listCoreToolSections().flatMap((section) =>
      section.tools.map((id) => {
        const tool = CORE_TOOL_DEFINITIONS.find((t) => t.id === id)!;
        return `| \`${id}\` | ${section.label} | ${tool.profiles.join(', ') || '–'} | ${tool.inCoreGroup ? 'yes' : 'no'} | ${tool.description.replace(/\|/g, '\\|')} |`;
      }),
    ),
    '',
    `Hidden from default surfaces: ${code(HIDDEN_BY_DEFAULT)}. Aliases: ${[...TOOL_NAME_ALIASES.entries()].map(([from, to]) => `\`${from}\` → \`${to}\``).join(', ')}.`,
    '',
    '## The sandbox layer\'s defaults',
    '',
    'A sandboxed session also passes the sandbox layer (`tools.sandbox.tools` overrides these):',
    '',
    `- allow: ${code(SANDBOX_DEFAULT_TOOL_ALLOW)}`,
    `- deny: ${code(SANDBOX_DEFAULT_TOOL_DENY)}`,
    '',
  ];
  return lines.join('\n');
}

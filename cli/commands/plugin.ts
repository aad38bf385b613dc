/** `pincer plugin new NAME`: scaffold a working plugin with a passing test and its config entry. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { out, outJson, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { scaffoldPlugin, type PluginLang } from '../plugin/scaffold.js';

const OPTIONS = { ...COMMON_OPTIONS, lang: { type: 'string', short: 'l' }, dir: { type: 'string', short: 'd' } } as const;
const LANGS: readonly PluginLang[] = ['ts', 'python'];
// The host's rule for plugin ids (kernel/host/config.ts).
const PLUGIN_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export const pluginCommand: Command = {
  name: 'plugin',
  summary: 'Scaffold a new plugin with a passing test (pincer plugin new NAME)',
  help: `Usage: pincer plugin new NAME [--lang ts|python] [--dir D] [--json]

Writes a working plugin named NAME into D (default: ./NAME, which must not
exist or must be empty): one tool, NAME_count_lines (non-alphanumerics as _),
that reads a workspace file through the kernel, and a test that passes.

  ts       TypeScript on pincer/sdk, tested in memory with pincer/sdk/testing
           (vitest); its "pincer" dependency is this installation (file:...).
           Then: npm install && npm run build && npm test
  python   standard-library Python speaking the protocol itself, tested with
           unittest against the plugin as a real process.
           Then: python3 -m unittest -v

Prints the entry to add to the config's "plugins", and the alsoAllow entry the
coding profile needs for the plugin's tools. Keep the folder outside every
agent workspace: the kernel refuses plugin code an agent could edit.

Options:
  -l, --lang L   ts (default) or python
  -d, --dir D    the folder to create (default: ./NAME)
      --json     machine-readable output: {ok, id, lang, dir, files, tool, configEntry}`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('plugin', argv, OPTIONS);
    const [sub, id] = positionals;
    if (sub !== 'new') throw usageError(sub === undefined ? "'pincer plugin' needs a subcommand: new" : `unknown subcommand '${sub}' for 'pincer plugin' (known: new)`, 'plugin');
    expectPositionals('plugin new', positionals.slice(1), 1, 1, 'a NAME for the plugin');
    if (!PLUGIN_ID.test(id!)) throw usageError(`'${id}' is not a plugin id: use 1-64 letters, digits, ".", "_" and "-", starting with a letter or digit`, 'plugin');
    const lang = (values.lang ?? 'ts') as PluginLang;
    if (!LANGS.includes(lang)) throw usageError(`--lang must be one of ${LANGS.join(', ')}, got '${values.lang}'`, 'plugin');
    const dir = resolve(ctx.cwd, values.dir ?? id!);
    if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
      throw new CliError('FILE_EXISTS', `${dir} already exists and is not an empty folder; not writing into it`, { hint: 'Choose another NAME or --dir D.', data: { path: dir } });
    }
    const pincerRoot = packageRoot();
    if (!pincerRoot) throw new CliError('INTERNAL', 'cannot find the installed pincer package (no package.json named "pincer" above the CLI)');
    const result = scaffoldPlugin({ id: id!, lang, dir, pincerRoot });
    if (values.json) {
      outJson(ctx, { ok: true, id, lang, dir, files: result.files, tool: result.toolName, configEntry: result.configEntry });
      return 0;
    }
    const c = ctx.colors;
    const next = lang === 'ts' ? `cd ${dir} && npm install && npm run build && npm test` : `cd ${dir} && python3 -m unittest -v`;
    out(ctx, [
      `${c.green('✓')} Created ${dir} (${lang === 'ts' ? 'TypeScript' : 'Python'}): ${result.files.join(', ')}`,
      '',
      `Next: ${next}`,
      '',
      'Then add it to the "plugins" of your pincer.config.json:',
      `  ${JSON.stringify(result.configEntry)}`,
      `and let the coding profile give its tool (${result.toolName}) to runs:`,
      `  "tools": { "alsoAllow": ["${id}"] }`,
    ].join('\n'));
    return 0;
  },
};

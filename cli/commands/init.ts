/** `pincer init`: write a commented starter config for a workspace. */
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMMON_OPTIONS, expectPositionals, parseFlags, type Parsed } from '../args.js';
import { out, outJson, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { canAsk, createAsker } from '../init/ask.js';
import { parseSshTarget, validateSshTarget } from '../init/ssh-target.js';
import { BACKENDS, PROFILES, SANDBOX_MODES, renderStarterConfig, type Backend, type PluginEntry, type StarterChoices } from '../init/starter-config.js';
import { writeStarterConfig } from '../init/write-config.js';
import type { KernelApi } from '../kernel.js';
import { bundledPluginModule, packageRoot } from '../package-root.js';
import { checkWorkspace, resolveWorkspaceFlag } from '../workspace-guard.js';

const OPTIONS = {
  ...COMMON_OPTIONS,
  workspace: { type: 'string', short: 'w' },
  profile: { type: 'string' },
  sandbox: { type: 'string' },
  backend: { type: 'string' },
  ssh: { type: 'string' },
  'ssh-key': { type: 'string' },
  force: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
} as const;
type Values = Parsed<typeof OPTIONS>['values'];

export const initCommand: Command = {
  name: 'init',
  summary: 'Write a commented starter config for a workspace',
  help: `Usage: pincer init [--workspace D] [--profile P] [--sandbox MODE] [--backend B] [--force] [--json]

Writes D/pincer.config.json (D: --workspace, else the current directory) with
comments that explain each part: the bundled plugins from this installation,
the tool profile, the sandbox mode, and one agent "main" whose workspace is D.
Its "$schema" points at the config JSON Schema shipped with Pincer, so editors
complete and validate it. The file is loaded as the kernel would load it
before it is put in place.

On a terminal, asks for what the flags do not give; otherwise (or with --yes)
takes the defaults: profile coding, sandbox off.

Exit status: 0 when written; 1 when the file exists (without --force) or the
workspace is refused; 2 for bad flags.

Options:
  -w, --workspace D   the workspace (default: the current directory; /, home
                      and its parents only when named here)
  -c, --config F      write the config to F instead (the workspace stays D)
      --profile P     minimal, coding (default), messaging or full
      --sandbox MODE  off (default), non-main or all
      --backend B     docker (default) or ssh, when the sandbox mode is not off
      --ssh U@H[:P]   the ssh backend's user, host and port
      --ssh-key F     the ssh backend's private key file
      --force         replace an existing file (kept as <file>.bak)
  -y, --yes           never ask; defaults for what the flags do not give
      --json          machine-readable output: {ok, path, profile, sandbox, backend, backup}`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('init', argv, OPTIONS);
    expectPositionals('init', positionals, 0, 0, 'no arguments (the workspace is --workspace D)');
    const workspace = values.workspace === undefined ? ctx.cwd : resolveWorkspaceFlag(ctx, values.workspace, 'init');
    checkWorkspace(workspace, values.workspace === undefined ? undefined : workspace, ctx.env);
    const file = resolve(ctx.cwd, values.config ?? join(workspace, 'pincer.config.json'));
    const choices = await decide(ctx, values);
    const root = packageRoot();
    if (!root) throw new CliError('INTERNAL', 'cannot find the installed pincer package (no package.json named "pincer" above the CLI)');
    const api = await ctx.kernelApi();
    const text = renderStarterConfig({
      ...choices,
      workspace: relative(dirname(file), workspace) || '.',
      schemaUrl: pathToFileURL(join(root, 'schema', 'pincer.config.schema.json')).href,
      plugins: pluginEntries(api, root, workspace, choices),
    });
    const { backup } = await writeStarterConfig(file, text, values.force === true, async (temp) => {
      await api.loadConfig(temp, { cwd: ctx.cwd }).catch((cause: unknown) => {
        throw new CliError('INTERNAL', `the starter config does not load: ${(cause as Error).message}`, { cause });
      });
    });
    if (values.json) {
      outJson(ctx, { ok: true, path: file, profile: choices.profile, sandbox: choices.sandbox, backend: choices.backend ?? null, backup: backup ?? null });
      return 0;
    }
    const c = ctx.colors;
    out(ctx, `${c.green('✓')} Wrote ${file} (profile ${choices.profile}, sandbox ${choices.sandbox}${choices.backend ? ` on ${choices.backend}` : ''}).`);
    if (backup) out(ctx, `  The previous file is kept as ${backup}.`);
    const at = values.config ? ` --config ${file}` : '';
    out(ctx, `Next: check it with 'pincer doctor${at}', then 'pincer tools${at}' shows what a run gets.`);
    return 0;
  },
};

function oneOf<T extends string>(flag: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw usageError(`--${flag} must be one of ${choices.join(', ')}, got '${value}'`, 'init');
}

/** Flags first; on a terminal, questions for the rest; else the defaults. */
async function decide(ctx: CliContext, values: Values): Promise<StarterChoices> {
  let profile = oneOf('profile', values.profile, PROFILES);
  let sandbox = oneOf('sandbox', values.sandbox, SANDBOX_MODES);
  let backend: Backend | undefined = oneOf('backend', values.backend, BACKENDS);
  let ssh = values.ssh === undefined ? undefined : parseSshTarget(values.ssh, 'init');
  const asker = !values.yes && canAsk(ctx) ? createAsker(ctx.stdin, ctx.stderr) : undefined;
  try {
    profile ??= asker ? await asker.choose('Tool profile', PROFILES, 'coding') : 'coding';
    sandbox ??= asker ? await asker.choose('Sandbox mode', SANDBOX_MODES, 'off') : 'off';
    if (sandbox === 'off') {
      if (backend || ssh || values['ssh-key'] !== undefined) throw usageError('--backend, --ssh and --ssh-key need a sandbox mode other than off (--sandbox non-main or all)', 'init');
      return { profile, sandbox };
    }
    backend ??= ssh ? 'ssh' : asker ? await asker.choose('Sandbox backend', BACKENDS, 'docker') : 'docker';
    if (backend === 'docker') {
      if (ssh || values['ssh-key'] !== undefined) throw usageError('--ssh and --ssh-key apply to --backend ssh', 'init');
      return { profile, sandbox, backend };
    }
    if (!ssh && asker) ssh = parseSshTarget(await asker.text('SSH target (user@host[:port])', validateSshTarget), 'init');
    if (!ssh) throw usageError('--backend ssh needs --ssh user@host[:port]', 'init');
    const key = values['ssh-key'] ?? (asker ? await asker.text('Private key file (empty: use ssh-agent)', () => undefined) : '');
    return { profile, sandbox, backend, ssh: { ...ssh, ...(key ? { privateKeyPath: resolve(ctx.cwd, key) } : {}) } };
  } finally {
    asker?.close();
  }
}

/** The bundled plugins as the embedded default lists them, plus the chosen sandbox backend's. */
function pluginEntries(api: KernelApi, root: string, workspace: string, choices: StarterChoices): PluginEntry[] {
  const base = (api.defaultConfig({ cwd: workspace }).plugins ?? []) as PluginEntry[];
  // In Pincer's own checkout the embedded default lets its plugins run inside the workspace; so may the backend.
  const dev = base.some((entry) => entry.allowInsideWorkspace === true) ? { allowInsideWorkspace: true } : {};
  if (!choices.backend) return base;
  const id = `sandbox-${choices.backend}`;
  const settings = choices.ssh ? { settings: { ssh: choices.ssh } } : {};
  return [...base, { id, module: bundledPluginModule(root, id), ...settings, ...dev }];
}

/**
 * `pincer sandbox list | recreate | prune | check | image build`: the operator's view of sandboxes.
 * Each subcommand is a backend's operator method (`sandbox/admin/*`), answered through the kernel
 * by the plugin that serves the backend; the CLI imports no plugin.
 */
import { COMMON_OPTIONS, expectPositionals, parseFlags, type Parsed } from '../args.js';
import { describeSource } from '../config-source.js';
import { out, outJson, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { formatCheck, formatPluginProblems, formatSandboxList } from '../format/sandbox.js';
import { withKernel, type KernelSession } from '../kernel-session.js';
import { adminCall } from '../sandbox/admin-call.js';
import { runSandboxCheck } from '../sandbox/check.js';
import { buildImageCommand } from '../sandbox/image.js';
import { toSandboxRows } from '../sandbox/rows.js';
import { agentIds, pluginSettings } from '../sandbox/settings.js';
import { SANDBOX_HELP } from '../sandbox/help.js';

const OPTIONS = {
  ...COMMON_OPTIONS,
  session: { type: 'string', short: 's' },
  agent: { type: 'string', short: 'a' },
  all: { type: 'boolean' },
  'idle-hours': { type: 'string' },
  'max-age-days': { type: 'string' },
  tag: { type: 'string', short: 't' },
  file: { type: 'string', short: 'f' },
} as const;
type Values = Parsed<typeof OPTIONS>['values'];
type RecreateTarget = { session: string } | { agent: string } | { all: true };

/** Flags each subcommand accepts beyond --config/--json/--help; anything else is a usage error. */
const ALLOWED: Record<string, readonly (keyof Values)[]> = {
  list: [],
  recreate: ['session', 'agent', 'all'],
  prune: ['idle-hours', 'max-age-days'],
  check: ['agent'],
  image: ['tag', 'file'],
};
const FLAGS = ['session', 'agent', 'all', 'idle-hours', 'max-age-days', 'tag', 'file'] as const;

/** list, recreate and prune act on the docker backend's containers (the one backend that keeps sandboxes on an engine). */
const LIFECYCLE_BACKEND = 'docker';

export const sandboxCommand: Command = {
  name: 'sandbox',
  summary: 'List, recreate, prune and self-test sandbox containers',
  help: SANDBOX_HELP,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('sandbox', argv, OPTIONS);
    const [sub] = positionals;
    if (sub === undefined) throw usageError("'pincer sandbox' needs a subcommand: list, recreate, prune, check or image build", 'sandbox');
    if (!(sub in ALLOWED)) throw usageError(`unknown subcommand '${sub}' for 'pincer sandbox' (known: list, recreate, prune, check, image build)`, 'sandbox');
    if (sub === 'image' && positionals[1] !== 'build') throw usageError("'pincer sandbox image' has one subcommand: build", 'sandbox');
    expectPositionals(`sandbox ${sub}`, positionals.slice(sub === 'image' ? 2 : 1), 0, 0, 'no arguments');
    for (const flag of FLAGS) {
      if (values[flag] !== undefined && !ALLOWED[sub].includes(flag)) throw usageError(`flag '--${flag}' does not apply to 'pincer sandbox ${sub}'`, 'sandbox');
    }
    if (sub === 'image') return buildImageCommand(ctx, { config: values.config, tag: values.tag, file: values.file, json: values.json });
    const what = sub === 'recreate' ? recreateTarget(values) : undefined;
    const rule = sub === 'prune' ? pruneRule(values) : undefined;

    return withKernel(ctx, { configFlag: values.config, command: 'sandbox' }, async (session) => {
      const { kernel, source } = session;
      switch (sub) {
        case 'check':
          return check(ctx, session, values);
        case 'list': {
          const { sandboxes } = await adminCall(kernel, 'list', { backend: LIFECYCLE_BACKEND });
          const rows = toSandboxRows(sandboxes);
          if (values.json) outJson(ctx, { config: describeSource(source), sandboxes: rows });
          else out(ctx, formatSandboxList(ctx, rows));
          return 0;
        }
        case 'recreate':
          return recreate(ctx, session, what!, values.json);
        default:
          return prune(ctx, session, rule!, values.json);
      }
    });
  },
};

function recreateTarget(values: Values): RecreateTarget {
  const given = [values.session !== undefined, values.agent !== undefined, values.all === true].filter(Boolean).length;
  if (given !== 1) throw usageError("'pincer sandbox recreate' needs exactly one of --session S, --agent A or --all", 'sandbox');
  if (values.session !== undefined) return { session: values.session };
  if (values.agent !== undefined) return { agent: values.agent };
  return { all: true };
}

async function recreate(ctx: CliContext, { kernel }: KernelSession, what: RecreateTarget, json?: boolean): Promise<number> {
  const { removed } = await adminCall(kernel, 'recreate', { backend: LIFECYCLE_BACKEND, target: what });
  const selector = 'session' in what ? `--session ${what.session}` : 'agent' in what ? `--agent ${what.agent}` : '--all';
  if (json) outJson(ctx, { target: what, removed });
  else if (removed.length === 0) out(ctx, `No sandbox container matched ${selector}; nothing removed.`);
  else out(ctx, `Removed ${plural(removed.length)} (${removed.join(', ')}); each is created fresh on next use.`);
  return 0;
}

/** A non-negative number of hours or days; 0 disables that rule, as in the config. Unset: the backend's configured default. */
function amount(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw usageError(`flag '--${flag}' needs a non-negative number, got '${text}'`, 'sandbox');
  return n;
}

function pruneRule(values: Values): { idleHours?: number; maxAgeDays?: number } {
  const idleHours = amount('idle-hours', values['idle-hours']);
  const maxAgeDays = amount('max-age-days', values['max-age-days']);
  return { ...(idleHours !== undefined ? { idleHours } : {}), ...(maxAgeDays !== undefined ? { maxAgeDays } : {}) };
}

/** The ssh backend's remote workspace copies no session holds, when the config has an ssh backend plugin. */
async function sshPrune(kernel: KernelSession['kernel'], config: KernelSession['config'], given: { idleHours?: number; maxAgeDays?: number }) {
  if (pluginSettings(config, 'sandbox-ssh')?.ssh === undefined) return undefined;
  return adminCall(kernel, 'prune', { backend: 'ssh', ...given });
}

async function prune(ctx: CliContext, { kernel, config }: KernelSession, given: { idleHours?: number; maxAgeDays?: number }, json?: boolean): Promise<number> {
  const hasDocker = pluginSettings(config, 'sandbox-docker') !== undefined;
  const sshResult = await sshPrune(kernel, config, given);
  const ssh = sshResult?.removed;
  if (!hasDocker && sshResult === undefined) throw new CliError('CONFIG', 'the config has no sandbox-docker or sandbox-ssh plugin entry: no sandbox to prune', { hint: "add the backend's plugin entry (pincer init --sandbox non-main writes one)" });
  const docker = hasDocker ? await adminCall(kernel, 'prune', { backend: LIFECYCLE_BACKEND, ...given }) : undefined;
  // The rule as a backend applied it (its configured defaults for what the flags left out).
  const rule = (docker ?? sshResult)!.rule;
  const removed = docker?.removed ?? [];
  const parts = [rule.idleHours > 0 ? `idle > ${rule.idleHours}h` : '', rule.maxAgeDays > 0 ? `older than ${rule.maxAgeDays}d` : ''].filter(Boolean);
  if (json) outJson(ctx, { rule, removed, ...(ssh ? { ssh } : {}) });
  else if (!parts.length) out(ctx, 'Both prune rules are disabled (0); nothing to do.');
  else if (removed.length + (ssh?.length ?? 0) === 0) out(ctx, `Nothing to prune (${parts.join(' or ')}).`);
  else {
    if (removed.length) out(ctx, `Pruned ${plural(removed.length)} (${parts.join(' or ')}): ${removed.join(', ')}`);
    if (ssh?.length) out(ctx, `Pruned ${ssh.length} ssh workspace cop${ssh.length === 1 ? 'y' : 'ies'} (${parts.join(' or ')}): ${ssh.join(', ')}`);
  }
  return 0;
}

async function check(ctx: CliContext, { kernel, config }: KernelSession, values: Values): Promise<number> {
  if (values.agent !== undefined && !agentIds(config).includes(values.agent)) {
    throw usageError(`unknown agent '${values.agent}' (configured: ${agentIds(config).join(', ')})`, 'sandbox');
  }
  const outcome = await runSandboxCheck(kernel, config, values.agent, ctx.cwd, ctx.env);
  const ok = outcome.plugins.length === 0 && outcome.backends.every((b) => b.ok);
  if (values.json) outJson(ctx, { ok, ...outcome });
  else {
    if (outcome.plugins.length) out(ctx, formatPluginProblems(ctx, outcome.plugins));
    out(ctx, outcome.skipped ? ctx.colors.dim(`Nothing to check: ${outcome.skipped}.`) : formatCheck(ctx, outcome.backends));
  }
  if (!ok) throw new CliError('UNHEALTHY', 'sandbox self-test failed', { reported: true, data: { plugins: outcome.plugins, backends: outcome.backends } });
  return 0;
}

function plural(n: number): string {
  return `${n} sandbox container${n === 1 ? '' : 's'}`;
}

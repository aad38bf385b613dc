/**
 * `pincer outbox tail`: the last records of an outbox journal (the outbox channel's, or the local
 * node's notifications), oldest first, across rotated files; `--follow` keeps printing new ones.
 * Reads the files only: it needs no running kernel and never writes.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { journalFiles, parseLines } from '../../sdk/journal/index.js';
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { discoverConfig, loadDiscoveredConfig } from '../config-source.js';
import { out, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';

const OPTIONS = {
  ...COMMON_OPTIONS,
  dir: { type: 'string' },
  plugin: { type: 'string', short: 'p' },
  lines: { type: 'string', short: 'n' },
  follow: { type: 'boolean', short: 'f' },
} as const;

interface OutboxRecord {
  seq: number;
  at?: string;
  channel?: string;
  action?: string;
  to?: unknown;
  title?: unknown;
  message?: unknown;
  source?: { sessionKey?: string; crossSession?: boolean };
}

const JOURNAL_NAME = 'outbox';

type PluginEntry = { id: string; module?: string; cwd?: string; env?: Record<string, string>; settings?: Record<string, unknown> };

/** The journal directory of an outbox plugin entry, the way the plugin itself resolves it. */
function pluginOutboxDir(ctx: CliContext, plugin: PluginEntry): string {
  const base = plugin.cwd ?? ctx.cwd;
  const dir = plugin.settings?.dir ?? plugin.settings?.notificationsDir;
  if (typeof dir === 'string') return isAbsolute(dir) ? dir : resolve(base, dir);
  const sub = plugin.settings?.notificationsDir !== undefined || plugin.module?.includes('nodes-local') ? 'notifications' : 'outbox';
  const data = plugin.env?.PINCER_PLUGIN_DATA_DIR ?? join(ctx.env.PINCER_STATE_DIR ? resolve(ctx.env.PINCER_STATE_DIR) : join(ctx.env.HOME ?? homedir(), '.pincer', 'state'), 'plugins', plugin.id);
  return join(data, sub);
}

async function outboxDir(ctx: CliContext, values: { dir?: string; plugin?: string; config?: string }): Promise<string> {
  if (values.dir) return resolve(ctx.cwd, values.dir);
  const api = await ctx.kernelApi();
  const config = (await loadDiscoveredConfig(ctx, api, discoverConfig(ctx, values.config))) as { plugins?: PluginEntry[] };
  const plugins = config.plugins ?? [];
  const candidates = values.plugin ? plugins.filter((p) => p.id === values.plugin) : plugins.filter((p) => /channel-outbox/.test(p.module ?? p.id));
  if (candidates.length !== 1) {
    const why = values.plugin ? `no plugin "${values.plugin}" is configured` : candidates.length === 0 ? 'no outbox plugin is configured' : `several outbox plugins are configured (${candidates.map((p) => p.id).join(', ')})`;
    throw usageError(`${why}; name one with --plugin ID or give the journal directory with --dir`, 'outbox');
  }
  return pluginOutboxDir(ctx, candidates[0]);
}

function readAll(dir: string): OutboxRecord[] {
  return journalFiles(dir, JOURNAL_NAME).flatMap((file) => parseLines(readFileSync(file, 'utf8')).records as OutboxRecord[]);
}

function formatRecord(ctx: CliContext, record: OutboxRecord): string {
  const c = ctx.colors;
  const text = [record.title, record.message].filter((part) => typeof part === 'string' && part).join(': ');
  const to = typeof record.to === 'string' ? ` → ${record.to}` : '';
  const from = record.source?.sessionKey ? c.dim(` [${record.source.sessionKey}${record.source.crossSession ? ', cross-session' : ''}]`) : '';
  return `${c.dim(`#${record.seq} ${record.at ?? ''}`)} ${record.channel ?? ''}/${record.action ?? ''}${to}${from} ${text.replace(/\s+/g, ' ')}`;
}

export const outboxCommand: Command = {
  name: 'outbox',
  summary: 'Show the last messages written to an outbox channel (tail)',
  help: `Usage: pincer outbox tail [-n N] [--follow] [--dir D | --plugin ID] [--config F] [--json]

Prints the last N records (default 20) of an outbox journal, oldest first,
across its rotated files: sequence number, time, channel/action, recipient,
the sending session (marked when it was a cross-session send) and the text.

Without --dir, the journal of the configured outbox plugin is read (its
settings.dir, else outbox/ in its data directory under $PINCER_STATE_DIR or
~/.pincer/state); --plugin picks one when several are configured. The local
node's notifications are read the same way with --plugin or --dir.

Options:
  -n, --lines N    how many records (default 20)
  -f, --follow     keep printing new records until interrupted
      --dir D      the journal directory
  -p, --plugin ID  the outbox plugin entry to read
  -c, --config F   config file (else $PINCER_CONFIG, ./pincer.config.json)
      --json       one JSON array of records (not with --follow)`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('outbox', argv, OPTIONS);
    expectPositionals('outbox', positionals, 1, 1, "a subcommand: 'tail'");
    if (positionals[0] !== 'tail') throw usageError(`unknown subcommand '${positionals[0]}' for 'pincer outbox' (try 'tail')`, 'outbox');
    const count = values.lines === undefined ? 20 : Number(values.lines);
    if (!Number.isInteger(count) || count < 1) throw usageError(`--lines needs a positive whole number, not '${values.lines}'`, 'outbox');
    if (values.json && values.follow) throw usageError('--json and --follow do not go together', 'outbox');
    const dir = await outboxDir(ctx, values);
    const records = readAll(dir);
    if (records.length === 0 && journalFiles(dir, JOURNAL_NAME).length === 0 && !values.follow) {
      throw new CliError('UNHEALTHY', `no outbox journal in ${dir}`, { hint: 'Nothing was sent yet, or the plugin writes elsewhere (see --dir, --plugin).' });
    }
    const last = records.slice(-count);
    if (values.json) {
      ctx.stdout.write(`${JSON.stringify(last, null, 2)}\n`);
      return 0;
    }
    for (const record of last) out(ctx, formatRecord(ctx, record));
    if (!values.follow) return 0;
    let seen = records.at(-1)?.seq ?? 0;
    for (;;) {
      await sleep(500);
      for (const record of readAll(dir).filter((r) => r.seq > seen)) {
        out(ctx, formatRecord(ctx, record));
        seen = record.seq;
      }
    }
  },
};

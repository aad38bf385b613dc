/**
 * `pincer audit tail`: the last records of the kernel's audit trail, oldest first, across
 * rotated files; `--follow` keeps printing new ones as kernels append them (and follows the
 * file across rotation). Reads the files only, with sdk/journal's reader: no kernel is started.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AUDIT_JOURNAL_NAME, auditDirOf } from '../../kernel/audit/location.js';
import type { AuditRecord } from '../../kernel/audit/record.js';
import { activeFile, journalFiles, parseLines, rotatedFiles } from '../../sdk/journal/index.js';
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { describeSource, discoverConfig, loadDiscoveredConfig } from '../config-source.js';
import { out, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';

const OPTIONS = {
  ...COMMON_OPTIONS,
  dir: { type: 'string' },
  lines: { type: 'string', short: 'n' },
  follow: { type: 'boolean', short: 'f' },
  denied: { type: 'boolean' },
} as const;

/** A record as read back from the file: whatever a kernel of any version wrote (kernel/audit/record.ts). */
type AuditLine = Partial<AuditRecord>;

async function auditDir(ctx: CliContext, values: { dir?: string; config?: string }): Promise<string> {
  if (values.dir) return resolve(ctx.cwd, values.dir);
  const source = discoverConfig(ctx, values.config);
  const config = (await loadDiscoveredConfig(ctx, await ctx.kernelApi(), source)) as { audit?: { enabled?: boolean; dir?: string } };
  const dir = auditDirOf(config.audit, { cwd: ctx.cwd, env: ctx.env });
  if (!dir) throw new CliError('UNHEALTHY', `the audit trail is off in ${describeSource(source)} (audit.enabled is false)`, { hint: 'Remove "enabled": false from its "audit" block to record decisions again.' });
  return dir;
}

/** Bytes `[from, to)` of a file, cut after its last complete line; `next` is where reading resumes. */
function completeLines(file: string, from: number, to?: number): { records: AuditLine[]; next: number } {
  const fd = openSync(file, 'r');
  try {
    const end = to ?? fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.max(0, end - from));
    const read = buffer.length ? readSync(fd, buffer, 0, buffer.length, from) : 0;
    const last = buffer.subarray(0, read).lastIndexOf(10);
    // A line still being written stays for the next read.
    if (last < 0) return { records: [], next: from };
    return { records: parseLines(buffer.subarray(0, last + 1).toString('utf8')).records as AuditLine[], next: from + last + 1 };
  } finally {
    closeSync(fd);
  }
}

function inode(file: string): number | undefined {
  try {
    return statSync(file).ino;
  } catch {
    return undefined;
  }
}

const flat = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

function formatRecord(ctx: CliContext, r: AuditLine): string {
  const c = ctx.colors;
  const subject =
    r.kind === 'plugin.state' ? `${r.plugin} ${r.from} → ${r.to}`
    : r.kind === 'policy.removed' ? `${r.agent}: ${r.count} tool(s) via ${r.rule} (${(r.tools ?? []).join(', ')}${(r.count ?? 0) > (r.tools?.length ?? 0) ? ', ...' : ''})`
    : r.kind === 'sandbox.refused' ? `${r.operation} (${r.plugin}${r.backend ? ` → ${r.backend}` : ''})`
    : `${r.tool ?? ''}${r.plugin ? ` (${r.plugin})` : ''}`;
  const detail = [r.code, r.answer, r.by && `by ${r.by}`, r.digest && `${r.digest.slice(0, 19)}…`].filter(Boolean).join(' ');
  const where = r.session ? c.dim(` [${r.session}]`) : '';
  const kind = (r.kind ?? '?').padEnd(18);
  const text = `${subject}${detail ? ` ${detail}` : ''}${r.reason && r.kind !== 'policy.removed' ? `: ${r.reason}` : ''}`;
  return `${c.dim(r.at ?? '')} ${r.denied ? c.red(kind) : kind} ${flat(text)}${where}`;
}

export const auditCommand: Command = {
  name: 'audit',
  summary: "Show the kernel's audit trail of decisions (tail)",
  help: `Usage: pincer audit tail [-n N] [--follow] [--denied] [--dir D] [--config F] [--json]

Prints the last N records (default 20) of the audit trail, oldest first, across
its rotated files: time, kind, what it is about, the code and the reason. Kinds:
policy.removed, call.blocked, call.refused, approval.requested, approval.answered,
sandbox.refused, confinement.denied, plugin.state. Records that denied something
are marked (red on a terminal, "denied": true in JSON).

Without --dir, the trail of the config is read: its audit.dir, else audit/ in
$PINCER_STATE_DIR (default ~/.pincer/state).

Options:
  -n, --lines N    how many records (default 20)
  -f, --follow     keep printing new records until interrupted
      --denied     only records that denied something
      --dir D      the trail's directory
  -c, --config F   config file (else $PINCER_CONFIG, ./pincer.config.json)
      --json       one JSON array of records (with --follow: one record per line)`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('audit', argv, OPTIONS);
    expectPositionals('audit', positionals, 1, 1, "a subcommand: 'tail'");
    if (positionals[0] !== 'tail') throw usageError(`unknown subcommand '${positionals[0]}' for 'pincer audit' (try 'tail')`, 'audit');
    const count = values.lines === undefined ? 20 : Number(values.lines);
    if (!Number.isInteger(count) || count < 1) throw usageError(`--lines needs a positive whole number, not '${values.lines}'`, 'audit');
    const dir = await auditDir(ctx, values);
    const active = activeFile(dir, AUDIT_JOURNAL_NAME);
    if (journalFiles(dir, AUDIT_JOURNAL_NAME).length === 0 && !values.follow) {
      throw new CliError('UNHEALTHY', `no audit trail in ${dir}`, { hint: 'No kernel has decided anything there yet, or the trail is written elsewhere (audit.dir in the config, --dir).' });
    }
    // Where following starts is fixed first, so a record appended meanwhile is printed once.
    let ino = inode(active);
    const head = ino === undefined ? { records: [], next: 0 } : completeLines(active, 0, statSync(active).size);
    let offset = head.next;
    const rotated = rotatedFiles(dir, AUDIT_JOURNAL_NAME).flatMap((r) => parseLines(readFileSync(r.file, 'utf8')).records as AuditLine[]);
    const shown = (r: AuditLine) => !values.denied || r.denied === true;
    const print = (r: AuditLine) => (values.json ? out(ctx, JSON.stringify(r)) : out(ctx, formatRecord(ctx, r)));
    const last = [...rotated, ...head.records].filter(shown).slice(-count);
    if (values.json && !values.follow) {
      ctx.stdout.write(`${JSON.stringify(last, null, 2)}\n`);
      return 0;
    }
    last.forEach(print);
    if (!values.follow) return 0;
    for (;;) {
      await sleep(500);
      const now = inode(active);
      if (ino !== undefined && now !== ino) {
        // Rotated (maybe more than once): finish the file we were reading, now the rotated one
        // with our inode, then every file rotated after it, then start on the new active one.
        const rotatedNow = rotatedFiles(dir, AUDIT_JOURNAL_NAME);
        const ours = rotatedNow.findIndex((r) => inode(r.file) === ino);
        if (ours >= 0) {
          completeLines(rotatedNow[ours].file, offset).records.filter(shown).forEach(print);
          for (const later of rotatedNow.slice(ours + 1)) completeLines(later.file, 0).records.filter(shown).forEach(print);
        }
        offset = 0;
      }
      ino = now;
      if (now === undefined) continue;
      const fresh = completeLines(active, offset);
      offset = fresh.next;
      fresh.records.filter(shown).forEach(print);
    }
  },
};

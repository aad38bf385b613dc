/**
 * `policy test`'s file: the tools each run must have and must not have, for operators' CI.
 *
 *   { "config": "pincer.config.json",
 *     "runs": [{ "agent": "main", "group": "team", "mustHave": ["read"], "mustNotHave": ["exec"] }] }
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { parseJsonWithComments } from '../../kernel/config/jsonc.js';
import { parseSender } from '../args.js';
import { CliError } from '../errors.js';
import type { RunContext } from '../kernel.js';

const names = z.array(z.string().trim().min(1, 'a tool name must not be empty'));

const RunExpectation = z.strictObject({
  /** Shown in the report instead of the run's description. */
  name: z.string().min(1).optional(),
  agent: z.string().trim().min(1).optional(),
  session: z.string().trim().min(1).optional(),
  group: z.string().trim().min(1).optional(),
  /** As `--sender` takes it: an id, `@username` or a `+E164` phone number. */
  sender: z.string().trim().min(1).optional(),
  provider: z.string().trim().min(1).optional(),
  model: z.string().trim().min(1).optional(),
  mustHave: names.default([]),
  mustNotHave: names.default([]),
}).refine((r) => r.mustHave.length + r.mustNotHave.length > 0, { message: 'a run needs at least one tool in mustHave or mustNotHave' });

export const ExpectationsSchema = z.strictObject({
  /** The config to test, relative to this file; `--config` overrides it. */
  config: z.string().min(1).optional(),
  runs: z.array(RunExpectation).min(1, 'list at least one run'),
});
export type Expectations = z.output<typeof ExpectationsSchema>;
export type RunExpectation = z.output<typeof RunExpectation>;

export function runOf(e: RunExpectation): RunContext {
  const run: RunContext = { trigger: 'user' };
  if (e.agent) run.agentId = e.agent;
  if (e.session) run.sessionKey = e.session;
  if (e.group) run.groupId = e.group;
  if (e.sender) run.sender = parseSender(e.sender);
  if (e.provider) run.provider = e.provider;
  if (e.model) run.model = e.model;
  return run;
}

export function labelOf(e: RunExpectation): string {
  if (e.name) return e.name;
  const parts = [`agent ${e.agent ?? '(default)'}`];
  for (const key of ['session', 'group', 'sender', 'provider', 'model'] as const) if (e[key]) parts.push(`${key} ${e[key]}`);
  return parts.join(' · ');
}

/** The file, comments allowed; every problem named by its path (`runs[0].mustHave[1]`). */
export function readExpectations(file: string): Expectations {
  let raw: unknown;
  try {
    raw = parseJsonWithComments(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new CliError('CONFIG', `cannot read expectations ${file}: ${(cause as Error).message}`, { cause });
  }
  const parsed = ExpectationsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(root)', message: i.message }));
  throw new CliError('CONFIG', `expectations ${file} are invalid (${issues.length} problem${issues.length === 1 ? '' : 's'})`, {
    data: { issues },
    hint: issues.map((i) => `  ${i.path}: ${i.message}`).join('\n'),
  });
}

/**
 * One answer through every door (issue 23, "Done when"): a table of configs × run shapes, run
 * through the library, the CLI (`--json`), and an MCP SDK client over stdio and over HTTP
 * (`pincer serve`), must give the same tool list, the same sandbox decision, the same verdict
 * for a denied and a blocked call (outcome, code, retryable, wording), and the same explain.
 * Rows with `--session` and rows without: a run naming a group is the group's session in the
 * library and the CLI, and each MCP client its own; under `non-main` all of them are sandboxed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startServe } from '../mcp/helpers/serve-process.js';
import { createKernel, loadConfig, type CallResult, type PolicyRemoval, type RunContext } from '../../kernel/index.js';
import { CLI, REPO, ensureBuilt, pincer, tempWorkspace, writeConfig } from '../cli/helpers/built-cli.js';

/** The door-independent part of a call's answer. */
interface Verdict {
  outcome: string;
  code: string | null;
  retryable: boolean;
  text: string;
  removal?: Pick<PolicyRemoval, 'layer' | 'ruleKind' | 'matchedRules' | 'configKey'>;
}

interface Row {
  name: string;
  config: string;
  flags: string[];
  run: RunContext;
  /** A call the policy denies (with these arguments), and one the row expects to be ok or blocked. */
  denied: string;
  deniedArgs?: Record<string, unknown>;
  other: { tool: string; outcome: 'ok' | 'blocked' };
  sandboxed?: boolean;
}

const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' };
const pick = (r?: PolicyRemoval): Verdict['removal'] => r && { layer: r.layer, ruleKind: r.ruleKind, matchedRules: r.matchedRules, configKey: r.configKey };
const firstText = (content: unknown) => ((content as { type: string; text?: string }[])[0]?.text ?? '');

function fromResult(result: CallResult): Verdict {
  return { outcome: result.outcome, code: result.code ?? null, retryable: result.retryable, text: firstText(result.content), removal: pick(result.details?.removal as PolicyRemoval | undefined) };
}

function fromMcp(result: { isError?: boolean; content: unknown; _meta?: Record<string, unknown> }): Verdict {
  const meta = result._meta?.['pincer/outcome'] as { outcome: string; code: string | null; retryable: boolean; removal?: PolicyRemoval };
  expect(result.isError === true).toBe(meta.outcome !== 'ok');
  return { outcome: meta.outcome, code: meta.code, retryable: meta.retryable, text: firstText(result.content), removal: pick(meta.removal) };
}

/** What one door answered for one row. */
interface Answer {
  tools: string[];
  sandboxed: boolean;
  denied: Verdict;
  other: Verdict;
  /** `explain` of the denied tool and of the other one (which carries `callsBlocked` when every call is blocked). */
  explain: unknown;
  explainOther: unknown;
}

/** An explanation without what moves between restarts: a blocked plugin's state and last-error text. */
function stable(explanation: unknown): unknown {
  const { callsBlocked, ...rest } = explanation as { callsBlocked?: { code: string; plugins: { pluginId: string }[] } };
  return callsBlocked ? { ...rest, callsBlocked: { code: callsBlocked.code, plugins: callsBlocked.plugins.map((p) => p.pluginId) } } : rest;
}

const MARKER = 'cross-door-marker';

const ws = tempWorkspace();
const rows: Row[] = [];

beforeAll(async () => {
  ensureBuilt();
  const policy = await writeConfig(ws.dir, (c) => {
    c.tools = { profile: 'coding', deny: ['exec'] };
    c.groups = { team: { tools: { deny: ['write'] }, toolsBySender: { 'id:guest': { deny: ['read'] } } } };
    c.agents.list.push({ id: 'support', workspace: ws.dir, tools: { profile: 'messaging', alsoAllow: ['read', 'ls'] } });
  }, 'policy.json');
  // A required plugin that cannot start: every call of its agent is blocked, in every door.
  const blocked = await writeConfig(ws.dir, (c) => {
    c.plugins.push({ id: 'audit', module: join(REPO, 'dist/test/fixtures/plugins/crash-on-start.js'), required: true });
    c.tools = { profile: 'coding', deny: ['exec'] };
  }, 'blocked.json');
  // Group runs sandboxed under non-main, where the sandbox tool policy removes exec (23.1).
  const nonMain = await writeConfig(ws.dir, (c) => {
    c.agents.defaults = { sandbox: { mode: 'non-main', backend: 'local' } };
    c.tools = { profile: 'coding', sandbox: { tools: { deny: ['exec'] } } };
    c.groups = { team: { tools: { deny: ['write'] } } };
  }, 'non-main.json');
  // A provider rule keyed by a qualified model, matched from --model alone (23.5).
  const provider = await writeConfig(ws.dir, (c) => {
    c.tools = { profile: 'coding', byProvider: { 'openai/gpt-4o': { deny: ['write'] } } };
  }, 'provider.json');
  rows.push(
    { name: 'global deny, default agent', config: policy, flags: ['--session', 'cd:1'], run: { sessionKey: 'cd:1' }, denied: 'exec', other: { tool: 'ls', outcome: 'ok' } },
    { name: 'agent profile', config: policy, flags: ['--agent', 'support', '--session', 'cd:2'], run: { agentId: 'support', sessionKey: 'cd:2' }, denied: 'write', other: { tool: 'ls', outcome: 'ok' } },
    { name: "a group's sender rule", config: policy, flags: ['--group', 'team', '--sender', 'guest', '--session', 'cd:3'], run: { groupId: 'team', sender: { id: 'guest' }, sessionKey: 'cd:3' }, denied: 'read', other: { tool: 'ls', outcome: 'ok' } },
    { name: 'failed required plugin', config: blocked, flags: ['--session', 'cd:4'], run: { sessionKey: 'cd:4' }, denied: 'exec', other: { tool: 'ls', outcome: 'blocked' } },
    { name: 'a group run under non-main, no --session', config: nonMain, flags: ['--group', 'team'], run: { groupId: 'team' }, denied: 'exec', deniedArgs: { command: `touch ${MARKER}` }, other: { tool: 'ls', outcome: 'ok' }, sandboxed: true },
    { name: 'byProvider keyed by a qualified --model, no --session', config: provider, flags: ['--model', 'openai/gpt-4o'], run: { model: 'openai/gpt-4o' }, denied: 'write', deniedArgs: { path: MARKER, content: 'x' }, other: { tool: 'ls', outcome: 'ok' } },
  );
});
afterAll(() => ws.cleanup());

async function viaLibrary(row: Row): Promise<Answer> {
  const kernel = createKernel(await loadConfig(row.config, { cwd: ws.dir }), { cwd: ws.dir, logger: () => undefined });
  await kernel.start();
  try {
    const toolSet = kernel.assembleTools({ ...row.run, trigger: 'user' });
    // Without --session, a run that names a group is that group's session, never the main one.
    if (row.run.groupId && !row.run.sessionKey) expect(toolSet.run?.sessionKey).toBe(`agent:main:group:${row.run.groupId}`);
    return {
      tools: toolSet.tools.map((t) => t.name).sort(),
      sandboxed: toolSet.sandbox.sandboxed,
      denied: fromResult(await toolSet.execute(row.denied, row.deniedArgs ?? {})),
      other: fromResult(await toolSet.execute(row.other.tool, {})),
      explain: toolSet.explain(row.denied),
      explainOther: toolSet.explain(row.other.tool),
    };
  } finally {
    await kernel.stop();
  }
}

async function viaCli(row: Row): Promise<Answer> {
  const run = (args: string[]) => pincer([...args, '--config', row.config, ...row.flags, '--json'], { cwd: ws.dir, timeoutMs: 60_000 });
  const [tools, denied, other, explain, explainOther] = await Promise.all([
    run(['tools']), run(['call', row.denied, JSON.stringify(row.deniedArgs ?? {})]), run(['call', row.other.tool, '{}']), run(['explain', row.denied]), run(['explain', row.other.tool]),
  ]);
  expect(denied.code).toBe(1);
  expect(other.code).toBe(row.other.outcome === 'ok' ? 0 : 1);
  const withoutRun = (stdout: string) => {
    const { config: _config, run: _run, ...explanation } = JSON.parse(stdout);
    return explanation;
  };
  const listed = JSON.parse(tools.stdout);
  return {
    tools: (listed.tools as { name: string }[]).map((t) => t.name).sort(),
    sandboxed: listed.sandbox.sandboxed,
    denied: fromResult(JSON.parse(denied.stdout)),
    other: fromResult(JSON.parse(other.stdout)),
    explain: withoutRun(explain.stdout),
    explainOther: withoutRun(explainOther.stdout),
  };
}

type McpAnswer = Omit<Answer, 'explain' | 'explainOther' | 'sandboxed'> & { removal?: Verdict['removal']; startup: string };

async function viaMcp(client: Client, row: Row, stderr: () => string): Promise<McpAnswer> {
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const denied = fromMcp((await client.callTool({ name: row.denied, arguments: row.deniedArgs ?? {} })) as never);
  const other = fromMcp((await client.callTool({ name: row.other.tool, arguments: {} })) as never);
  return { tools, denied, other, removal: denied.removal, startup: /pincer serve: .*/.exec(stderr())?.[0] ?? '' };
}

async function viaStdio(row: Row) {
  const client = new Client({ name: 'cross-door', version: '1' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', row.config, ...row.flags], cwd: ws.dir, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  try {
    return await viaMcp(client, row, () => stderr);
  } finally {
    await client.close();
  }
}

/** `pincer serve --http 0` with its default bearer token, through the MCP SDK client. */
async function viaHttp(row: Row) {
  const server = await startServe(ws.dir, ['--http', '0', '--config', row.config, ...row.flags], env);
  const client = await connectClient(server, server.token, 'cross-door');
  try {
    return await viaMcp(client, row, server.stderr);
  } finally {
    await client.close().catch(() => undefined);
    await server.stop();
  }
}

describe('one answer through every door: library, CLI --json, MCP over stdio and HTTP', () => {
  it.each([0, 1, 2, 3, 4, 5])('row %i: the same tools, sandbox, verdicts and explain', async (index) => {
    const row = rows[index];
    const library = await viaLibrary(row);
    const [cli, stdio, http] = await Promise.all([viaCli(row), viaStdio(row), viaHttp(row)]);

    expect(library.tools.length, row.name).toBeGreaterThan(0);
    expect(library.sandboxed, row.name).toBe(row.sandboxed ?? false);
    expect(library.denied).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED', retryable: false });
    expect(library.other.outcome).toBe(row.other.outcome);
    if (row.other.outcome === 'blocked') expect(library.other.code).toBe('REQUIRED_PLUGIN_UNAVAILABLE');

    expect(cli.sandboxed, `${row.name}: cli sandbox`).toBe(library.sandboxed);
    for (const [door, answer] of [['mcp stdio', stdio], ['mcp http', http]] as const) {
      // MCP shows the sandbox decision in its startup line; each client is its own session (agent:<id>:mcp:<uuid>).
      expect(answer.startup, `${row.name}: ${door} startup`).toContain(library.sandboxed ? 'sandbox on (local, mode non-main)' : 'sandbox off');
      if (!row.run.sessionKey) expect(answer.startup).toMatch(/session:? (agent:main:mcp:[0-9a-f-]{36} \(this client's own\)|one per client \(agent:main:mcp:<uuid>\))/);
    }
    for (const [door, answer] of [['cli', cli], ['mcp stdio', stdio], ['mcp http', http]] as const) {
      expect(answer.tools, `${row.name}: ${door} tools`).toEqual(library.tools);
      expect(answer.denied, `${row.name}: ${door} denied call`).toEqual(library.denied);
      // A blocked call's text names the plugin's state, which moves between restarts: compare the verdict.
      const { text: _text, ...other } = answer.other;
      const { text: _libraryText, ...libraryOther } = library.other;
      expect(other, `${row.name}: ${door} ${row.other.tool} call`).toEqual(libraryOther);
    }
    // explain: the CLI prints the library's explanation, callsBlocked included (less the
    // blocked plugin's moving state); MCP carries the removal with the denied call.
    expect(stable(cli.explain)).toEqual(stable(JSON.parse(JSON.stringify(library.explain))));
    expect(stable(cli.explainOther)).toEqual(stable(JSON.parse(JSON.stringify(library.explainOther))));
    if (row.other.outcome === 'blocked') expect(stable(library.explainOther)).toMatchObject({ callsBlocked: { code: 'REQUIRED_PLUGIN_UNAVAILABLE', plugins: ['audit'] } });
    expect(stdio.removal).toEqual(pick((library.explain as { removal: PolicyRemoval }).removal));
    expect(http.removal).toEqual(stdio.removal);
    // A denied call never ran: exec's touch (or write's file) left nothing, in any door.
    expect(existsSync(join(ws.dir, MARKER)), `${row.name}: a denied call ran`).toBe(false);
  });

  it("names a group's sender rule by its real key, and never tells the model how to change it (23.6, 9.1)", async () => {
    const { denied } = await viaLibrary(rows[2]);
    expect(denied.text).toContain('groups.team.toolsBySender.id:guest.deny');
    expect(denied.text).not.toMatch(/\bremove\b|To change it/);
  });

  it('prints a run-shape warning for a group the config does not know, in `pincer tools` and `pincer call` (23.5)', async () => {
    const flags = ['--config', rows[0].config, '--group', 'tema'];
    const [tools, call] = await Promise.all([pincer(['tools', ...flags], { cwd: ws.dir }), pincer(['call', 'ls', '{}', ...flags], { cwd: ws.dir })]);
    const warning = /group "tema" matches no entry under groups \(configured: team; ids compare case-insensitively\)/;
    expect(tools.stdout + tools.stderr).toMatch(warning);
    expect(call.stderr).toMatch(warning);
  });

  it('reports the block and its cause in explain and in `pincer tools` (23.4)', async () => {
    const row = rows[3];
    const tools = await pincer(['tools', '--config', row.config, ...row.flags], { cwd: ws.dir, env: { NO_COLOR: '1' } });
    expect(tools.stdout).toMatch(/Every call is blocked \(REQUIRED_PLUGIN_UNAVAILABLE\): required plugin "audit" is (restarting|starting|failed)/);
    const json = JSON.parse((await pincer(['tools', '--json', '--config', row.config, ...row.flags], { cwd: ws.dir })).stdout);
    expect(json.blocked).toMatchObject({ code: 'REQUIRED_PLUGIN_UNAVAILABLE', plugins: [{ pluginId: 'audit' }] });
    const explain = await pincer(['explain', 'ls', '--config', row.config, ...row.flags], { cwd: ws.dir });
    expect(explain.stdout).toMatch(/ls is available to .*\n[\s\S]*But every call is blocked \(REQUIRED_PLUGIN_UNAVAILABLE\): required plugin "audit"/);
  });
});

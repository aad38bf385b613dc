import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, pincer, writeConfig } from '../cli/helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Change { tool: string; cause: string; layer?: string; configKey?: string }
interface Shape { label: string; gained: Change[]; lost: Change[]; error?: { old?: string; new?: string } }

beforeAll(ensureBuilt);

const dir = tempDir('pincer-policy-');
let oldFile: string;
let newFile: string;

beforeAll(async () => {
  oldFile = await writeConfig(dir, (c) => (c.tools = { profile: 'coding', deny: ['process'] }), 'old.json');
  newFile = await writeConfig(dir, (c) => {
    c.tools = { profile: 'coding', deny: ['exec'], byProvider: { openai: { deny: ['apply_patch'] } }, sandbox: { tools: { deny: ['ls'] } } };
    c.groups = { team: { tools: { deny: ['write'] }, toolsBySender: { 'username:guest': { deny: ['edit'] } } } };
    c.agents.list[0].sandbox = { mode: 'non-main' };
    c.agents.list.push({ id: 'support', workspace: dir, tools: { profile: 'messaging', alsoAllow: ['read'] } });
  }, 'new.json');
});

describe('pincer policy diff', () => {
  it('lists per run shape the tools gained and lost, each with the layer and config key that cause it', async () => {
    const run = await pincer(['policy', 'diff', oldFile, newFile, '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const shapes = new Map((JSON.parse(run.stdout).shapes as Shape[]).map((s) => [s.label, s]));
    expect(shapes.get('agent main')).toMatchObject({
      gained: [{ tool: 'process', layer: 'global', configKey: 'tools.deny', cause: 'no longer removed by the global layer (tools.deny, deny: process)' }],
      lost: [{ tool: 'exec', layer: 'global', configKey: 'tools.deny' }],
    });
    expect(shapes.get('agent main · provider openai')!.lost.map((t) => [t.tool, t.layer])).toEqual([['apply_patch', 'globalProvider'], ['exec', 'global']]);
    expect(shapes.get('agent main · group team')!.lost).toContainEqual(expect.objectContaining({ tool: 'write', layer: 'group', configKey: 'groups.team.tools.deny' }));
    expect(shapes.get('agent main · group team · sender username:guest')!.lost).toContainEqual(expect.objectContaining({ tool: 'edit', layer: 'sender' }));
    expect(shapes.get('agent main · sandboxed session')!.lost).toContainEqual(expect.objectContaining({ tool: 'ls', layer: 'sandbox' }));
    expect(shapes.get('agent support')).toMatchObject({ gained: [{ tool: 'read', cause: 'newly served by plugin fs' }], error: { old: expect.stringContaining('no agent "support"') } });
  });

  it('says so when nothing changes, in words', async () => {
    const run = await pincer(['policy', 'diff', oldFile, oldFile], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('No run shape changes (1 compared).');
  });
});

describe('pincer policy test', () => {
  const expect_ = (name: string, body: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, `// what operators expect\n${JSON.stringify(body, null, 2)}\n`);
    return file;
  };

  it('passes when every run has what it must and lacks what it must not', async () => {
    const file = expect_('ok.json', { config: 'new.json', runs: [
      { agent: 'main', mustHave: ['read', 'write'], mustNotHave: ['exec'] },
      { agent: 'main', group: 'team', sender: '@guest', mustNotHave: ['edit', 'write'] },
      { agent: 'support', mustHave: ['read'], mustNotHave: ['write'] },
    ] });
    const run = await pincer(['policy', 'test', file], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('All 3 runs match');
  });

  it('exits 1 on a difference, naming the tool, what was expected and the layer that decided', async () => {
    const file = expect_('bad.json', { config: 'new.json', runs: [{ agent: 'main', group: 'team', mustHave: ['write', 'bash'] }, { agent: 'support', mustNotHave: ['read'] }] });
    const run = await pincer(['policy', 'test', file, '--json'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    expect(report.runs[0].failures).toEqual([
      { tool: 'write', expected: 'present', reason: 'removed by the group layer (groups.team.tools.deny, deny: write)' },
      { tool: 'bash', expected: 'present', reason: 'removed by the global layer (tools.deny, deny: exec)' },
    ]);
    expect(report.runs[1].failures[0]).toMatchObject({ tool: 'read', expected: 'absent' });

    // The same expectations against the old config, through --config: other differences.
    const old = await pincer(['policy', 'test', file, '--config', oldFile], { cwd: dir, timeoutMs: 60_000 });
    expect(old.code).toBe(1);
    expect(old.stdout).toContain('read: expected absent; the run is refused: no agent "support"');
  });

  it('refuses an expectations file it cannot read, naming each problem by path', async () => {
    const file = expect_('invalid.json', { config: 'new.json', runs: [{ agent: 'main', mustHave: [''], mustHav: ['x'] }] });
    const run = await pincer(['policy', 'test', file], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('runs[0].mustHave[0]: a tool name must not be empty');
    expect(run.stderr).toMatch(/runs\[0\]: Unrecognized key: "mustHav"/);
  });
});

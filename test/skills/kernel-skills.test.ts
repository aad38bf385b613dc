import { existsSync, writeFileSync } from 'node:fs';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkillCommandError, createKernel, defaultConfig, type Kernel } from '../../kernel/index.js';
import type { PincerConfig } from '../../kernel/config/schema.js';
import { TempDirs, countFsCalls, skillMd, waitFor, writeTree } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../..');
const guard = join(root, 'dist/test/fixtures/plugins/guard-hook.js');
const teamSkills = join(root, 'dist/test/fixtures/plugins/team-skills.js');
const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? '').join('');
const temp = new TempDirs();

/** The embedded default (bundled fs, shell, local backend, skills) with private skill dirs and the guard hook plugin. */
function configFor(workspace: string, home: string, team: string): PincerConfig {
  const base = defaultConfig({ cwd: workspace });
  // The local backend runs unconfined here: a skill directory a third-party plugin contributes
  // (team-skills, under /tmp) is not among the skill roots a confined backend is granted at spawn
  // (a known gap, docs/confinement.md); confinement has its own attack tests in test/confine.
  const plugins = (base.plugins ?? []).map((p) =>
    p.id === 'skills' ? { ...p, settings: { managedDir: join(home, 'managed'), personalDir: join(home, 'personal') } }
    : p.id === 'sandbox-local' ? { ...p, settings: { exec: { mode: 'danger-full-access' } } }
    : p);
  return {
    plugins: [...plugins, { id: 'guard', module: guard }, { id: 'team-skills', module: teamSkills, settings: { dir: team } }],
    agents: {
      list: [
        { id: 'main', default: true, workspace },
        { id: 'locked', workspace, tools: { deny: ['exec'] } },
      ],
    },
  };
}

describe('skills through the kernel, with the real skills plugin process', () => {
  let kernel: Kernel;
  let ws: string;
  let home: string;
  const listCalls: unknown[] = [];

  beforeAll(async () => {
    ws = temp.make();
    home = temp.make();
    writeTree(ws, {
      'skills/helper/SKILL.md': skillMd('Helps with the helper task', '', 'See scripts/run.sh.'),
      'skills/runner/SKILL.md': skillMd('Runs a shell command', 'command-dispatch: tool\ncommand-tool: exec\n'),
      'skills/guarded/SKILL.md': skillMd('Calls a tool a hook blocks', 'command-dispatch: tool\ncommand-tool: danger\n'),
      '.agents/skills/pincer-explain/SKILL.md': skillMd('The project version, overriding the bundled one'),
    });
    writeTree(home, { 'personal/mine/SKILL.md': skillMd('A personal skill') });
    // Another plugin's skill directory: its `helper` loses to the workspace's, `team-only` is its own.
    const team = writeTree(temp.make(), { 'helper/SKILL.md': skillMd('The team version'), 'team-only/SKILL.md': skillMd('Only the team has this') });
    kernel = createKernel(configFor(ws, home, team), { cwd: ws, logger: () => undefined });
    const listSkills = kernel.host.listSkills;
    kernel.host.listSkills = (...args) => (listCalls.push(args), listSkills(...args));
    await kernel.start();
    await kernel.skills.refresh();
  });
  afterAll(async () => {
    await kernel.stop();
    temp.cleanup();
  });

  it('lists every source once per workspace, however many agents share it', () => {
    // Six sources of the skills plugin and one of team-skills; both agents work in the same workspace.
    expect(listCalls).toHaveLength(7);
  });

  it('gives a run its skills by precedence, with locations its tools can read', async () => {
    const toolSet = kernel.assembleTools();
    const skills = toolSet.skills;
    expect(skills.current).toBe(true);
    expect(skills.skills.map((s) => [s.name, s.source, s.location])).toEqual([
      ['guarded', 'pincer-workspace', '/workspace/skills/guarded/SKILL.md'],
      ['helper', 'pincer-workspace', '/workspace/skills/helper/SKILL.md'],
      ['mine', 'agents-skills-personal', '/skills/agents-skills-personal/mine/SKILL.md'],
      ['pincer-explain', 'agents-skills-project', '/workspace/.agents/skills/pincer-explain/SKILL.md'],
      ['pincer-plugin-authoring', 'pincer-bundled', '/skills/pincer-bundled/pincer-plugin-authoring/SKILL.md'],
      ['pincer-skill-authoring', 'pincer-bundled', '/skills/pincer-bundled/pincer-skill-authoring/SKILL.md'],
      ['runner', 'pincer-workspace', '/workspace/skills/runner/SKILL.md'],
      ['team-only', 'team-skills', '/skills/team-skills/team-only/SKILL.md'],
    ]);
    expect(skills.collisions).toEqual([
      { name: 'pincer-explain', winner: { source: 'agents-skills-project', path: join(ws, '.agents/skills/pincer-explain') }, shadowed: { source: 'pincer-bundled', path: join(root, 'plugins/skills/bundled/pincer-explain') } },
      { name: 'helper', winner: { source: 'pincer-workspace', path: join(ws, 'skills/helper') }, shadowed: { source: 'team-skills', path: expect.stringMatching(/\/helper$/) } },
    ]);
    expect(skills.prompt).toContain('<location>/workspace/skills/helper/SKILL.md</location>');
    // The model can read what the index points at: workspace skills and, through read-only mounts, the others.
    for (const skill of skills.skills) {
      const result = await toolSet.execute('read', { path: skill.location });
      expect(result.isError, `${skill.name}: ${text(result)}`).toBeFalsy();
      expect(text(result)).toContain('description:');
    }
    const write = await toolSet.execute('write', { path: '/skills/agents-skills-personal/mine/SKILL.md', content: 'changed' });
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/READ_ONLY/);
  });

  it('reads skills for a run without a message or a rescan: the snapshot is reused', async () => {
    listCalls.length = 0;
    const first = kernel.assembleTools().skills;
    for (let i = 0; i < 50; i += 1) expect(kernel.assembleTools().skills.version).toBe(first.version);
    // No stat, no read: every node:fs call of the kernel's process is counted (the control shows the counter sees named imports).
    const calls = countFsCalls(() => {
      for (let i = 0; i < 50; i += 1) void kernel.assembleTools().skills.prompt;
      void kernel.skills.forRun({ agentId: 'main' }).skills;
    });
    expect(calls).toEqual({});
    expect(countFsCalls(() => existsSync(ws))).toEqual({ existsSync: 1 });
    await kernel.skills.refresh();
    expect(listCalls).toHaveLength(0);
  });

  it('follows an edit on disk through the watcher, without a refresh call', async () => {
    const before = kernel.assembleTools().skills;
    writeFileSync(join(ws, 'skills/helper/SKILL.md'), skillMd('Helps with the new helper task'));
    const after = await waitFor(() => {
      const skills = kernel.assembleTools().skills;
      return skills.skills.find((s) => s.name === 'helper')?.description === 'Helps with the new helper task' && skills.current ? skills : undefined;
    }, 'the edited description');
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.skills.find((s) => s.name === 'helper')?.version).not.toBe(before.skills.find((s) => s.name === 'helper')?.version);
  });

  describe('skill commands bound to a tool pass every policy layer and the gate (GHSA-mhm4-93fw-4qr2)', () => {
    it('runs the tool when the run holds it (the control case)', async () => {
      const marker = join(ws, 'ran-main');
      const result = await kernel.assembleTools({ agentId: 'main' }).skills.dispatch('runner', `touch ${marker}`);
      expect(result).toMatchObject({ outcome: 'ok', toolName: 'exec' });
      expect(existsSync(marker)).toBe(true);
    });

    it('refuses a command whose tool a policy layer removed, exactly as the model would be refused', async () => {
      const marker = join(ws, 'ran-locked');
      const toolSet = kernel.assembleTools({ agentId: 'locked' });
      expect(toolSet.skills.skills.some((s) => s.name === 'runner')).toBe(true);
      const viaCommand = await toolSet.skills.dispatch('runner', `touch ${marker}`);
      const viaModel = await toolSet.execute('exec', { command: `touch ${marker}` });
      expect(viaCommand).toMatchObject({ isError: true, outcome: 'denied', code: 'TOOL_REMOVED' });
      expect(viaModel).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED' });
      expect(text(viaCommand)).toContain('agents.locked.tools.deny');
      expect(text(viaCommand)).toBe(text(viaModel));
      expect(existsSync(marker)).toBe(false);
    });

    it('lets a before_tool_call hook block a command like any call', async () => {
      const result = await kernel.assembleTools().skills.dispatch('guarded', 'now');
      expect(result).toMatchObject({ outcome: 'blocked', isError: true });
      expect(result.details).toMatchObject({ status: 'blocked', reason: 'danger is not allowed here' });
      expect(text(result)).not.toContain('ran danger');
    });

    it('names what is wrong with a command that cannot be dispatched', async () => {
      const skills = kernel.assembleTools().skills;
      await expect(async () => skills.dispatch('nope', '')).rejects.toMatchObject({ code: 'UNKNOWN_SKILL' });
      await expect(async () => skills.dispatch('helper', '')).rejects.toBeInstanceOf(SkillCommandError);
      await expect(async () => skills.dispatch('helper', '')).rejects.toMatchObject({ code: 'NOT_A_TOOL_COMMAND' });
      // A host passing something other than the typed text is misuse, named, never a tool call.
      await expect(async () => skills.dispatch('runner', { command: 'x' } as unknown as string)).rejects.toMatchObject({ name: 'KernelUsageError', code: 'INVALID_CALL' });
    });
  });
});

describe('a host that never calls kernel.skills.refresh()', () => {
  it('gets a first run that says its skills are not current, and current ones soon after', async () => {
    const ws = writeTree(temp.make(), { 'skills/late/SKILL.md': skillMd('Listed in the background') });
    const home = temp.make();
    const config = defaultConfig({ cwd: ws });
    config.plugins = config.plugins!.map((p) => (p.id === 'skills' ? { ...p, settings: { managedDir: join(home, 'm'), personalDir: join(home, 'p') } } : p));
    const kernel = createKernel(config, { cwd: ws, logger: () => undefined });
    await kernel.start();
    try {
      const first = kernel.assembleTools().skills;
      expect(first.current).toBe(false);
      expect(first.warnings[0]).toMatch(/has not been listed yet; call kernel.skills.refresh\(\)/);
      const later = await waitFor(() => {
        const skills = kernel.assembleTools().skills;
        return skills.current ? skills : undefined;
      }, 'a current snapshot');
      expect(later.skills.map((s) => s.name)).toContain('late');
    } finally {
      await kernel.stop();
      temp.cleanup();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../kernel/config/validate.js';
import { applyPolicyPipeline, buildPolicySteps, type RunContext } from '../../kernel/policy/index.js';

const tools = ['read', 'write', 'exec', 'process'].map((name) => ({ name }));

const config = parseConfig({
  tools: { toolsBySender: { 'id:boss': { deny: ['read'] } } },
  groups: {
    '*': { tools: { deny: ['exec'] }, toolsBySender: { 'id:boss': { deny: ['write'] } } },
    team: { tools: { deny: ['process'] } },
    open: { tools: {} },
    vip: { toolsBySender: { '*': { allow: ['*'] } } },
  },
});

function removedBy(run: RunContext): Record<string, string | undefined> {
  const result = applyPolicyPipeline(tools, buildPolicySteps({ tools: config.tools, groups: config.groups, sandboxed: false, run }));
  return Object.fromEntries(result.removals.map((r) => [r.tool, r.configKey]));
}

describe('groups["*"]', () => {
  it('applies to every group the config does not list, with its per-sender rules', () => {
    expect(removedBy({ groupId: 'random' })).toEqual({ exec: 'groups.*.tools.deny' });
    expect(removedBy({ groupId: 'random', sender: { id: 'boss' } })).toEqual({ exec: 'groups.*.tools.deny', write: 'groups.*.toolsBySender.id:boss.deny' });
  });

  it('loses to a listed group, matched trimmed and case-insensitively; an empty tools lifts it', () => {
    expect(removedBy({ groupId: 'team' })).toEqual({ process: 'groups.team.tools.deny' });
    expect(removedBy({ groupId: ' TEAM ' })).toEqual({ process: 'groups.team.tools.deny' });
    expect(removedBy({ groupId: 'open' })).toEqual({});
  });

  it('still gives its sender rules to a listed group that has none of its own, and a group\'s own sender rules win', () => {
    expect(removedBy({ groupId: 'team', sender: { id: 'boss' } })).toEqual({ process: 'groups.team.tools.deny', write: 'groups.*.toolsBySender.id:boss.deny' });
    // vip's own `*` sender rule matches boss first: neither the wildcard's nor the global one applies.
    expect(removedBy({ groupId: 'vip', sender: { id: 'boss' } })).toEqual({ exec: 'groups.*.tools.deny' });
  });

  it('does not apply to a run that names no group; the global sender rules do', () => {
    expect(removedBy({ sender: { id: 'BOSS' } })).toEqual({ read: 'tools.toolsBySender.id:boss.deny' });
  });
});

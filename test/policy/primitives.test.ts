import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyEmbeddedAttemptToolsAllow,
  intersectToolAllowlists,
  PolicyInputError,
  splitSandboxBindSpec,
  toolPolicy,
} from '../../sdk/policy/index.js';

const { expandToolGroups, createToolPolicyMatcher } = toolPolicy;

describe('toolPolicy.expandToolGroups', () => {
  it('normalizes case, whitespace and aliases, drops blanks and dedupes in first-seen order', () => {
    expect(expandToolGroups(['  READ ', 'bash', 'exec', '', '   ', 'Apply-Patch', 'cron'])).toEqual(['read', 'exec', 'apply_patch', 'automations']);
  });

  it('expands core groups in catalog order, including the group:openclaw alias', () => {
    expect(expandToolGroups(['group:fs'])).toEqual(['ls', 'read', 'write', 'edit', 'apply_patch']);
    expect(expandToolGroups(['group:openclaw'])).toEqual(expandToolGroups(['group:core']));
    expect(expandToolGroups(['GROUP:FS', 'read'])).toEqual(['ls', 'read', 'write', 'edit', 'apply_patch']);
  });

  it('passes unknown names and unknown groups through and treats undefined and null as empty', () => {
    expect(expandToolGroups(['group:nope', 'my_tool'])).toEqual(['group:nope', 'my_tool']);
    expect(expandToolGroups(undefined)).toEqual([]);
    expect(expandToolGroups(null)).toEqual([]);
  });

  it('ignores non-string entries instead of throwing from deep inside', () => {
    expect(expandToolGroups([42, null, 'read', {}] as unknown[])).toEqual(['read']);
  });

  it('rejects a list that is not an array with a typed error naming it', () => {
    expect(() => expandToolGroups('read' as never)).toThrow(PolicyInputError);
  });

  it('is idempotent: expanding twice equals expanding once', () => {
    const entry = fc.constantFrom('read', 'bash', 'group:fs', 'group:runtime', 'group:openclaw', 'Cron', ' x ', '*', 're*', '');
    fc.assert(fc.property(fc.array(entry), (list) => {
      expect(expandToolGroups(expandToolGroups(list))).toEqual(expandToolGroups(list));
    }));
  });
});

describe('toolPolicy.createToolPolicyMatcher', () => {
  it('allows everything without a policy and with an empty allow list', () => {
    expect(createToolPolicyMatcher()('anything')).toBe(true);
    expect(createToolPolicyMatcher({ allow: [] })('anything')).toBe(true);
    expect(createToolPolicyMatcher({ allow: ['', '  '] })('anything')).toBe(true);
  });

  it('lets deny win over allow, including through groups and aliases', () => {
    const matches = createToolPolicyMatcher({ allow: ['group:runtime'], deny: ['BASH'] });
    expect(matches('exec')).toBe(false);
    expect(matches('bash')).toBe(false);
    expect(matches('process')).toBe(true);
    expect(matches('read')).toBe(false);
  });

  it('matches * globs at the start, middle and end, and * alone matches everything', () => {
    const matches = createToolPolicyMatcher({ allow: ['sessions_*', '*_search', 'web*fetch'] });
    expect(matches('sessions_list')).toBe(true);
    expect(matches('memory_search')).toBe(true);
    expect(matches('web_fetch')).toBe(true);
    expect(matches('web_search')).toBe(true);
    expect(matches('read')).toBe(false);
    expect(createToolPolicyMatcher({ allow: ['*'], deny: ['read'] })('read')).toBe(false);
    expect(createToolPolicyMatcher({ allow: ['*'] })('')).toBe(true);
  });

  it('treats regex characters in entries literally', () => {
    const matches = createToolPolicyMatcher({ allow: ['a.b*', 'x(y)'] });
    expect(matches('a.bc')).toBe(true);
    expect(matches('axbc')).toBe(false);
    expect(matches('x(y)')).toBe(true);
  });

  it('lets an allow of write admit apply_patch unless the second argument is false, and deny still wins', () => {
    expect(createToolPolicyMatcher({ allow: ['write'] })('apply_patch')).toBe(true);
    expect(createToolPolicyMatcher({ allow: ['write'] })('apply-patch')).toBe(true);
    expect(createToolPolicyMatcher({ allow: ['write'] }, false)('apply_patch')).toBe(false);
    expect(createToolPolicyMatcher({ allow: ['write'], deny: ['apply_patch'] })('apply_patch')).toBe(false);
    expect(createToolPolicyMatcher({ allow: ['w*'] })('apply_patch')).toBe(true);
  });

  it('denies unknown names when an allow list exists and handles groups in deny', () => {
    const matches = createToolPolicyMatcher({ allow: ['read', 'unknown_tool'], deny: ['group:fs'] });
    expect(matches('read')).toBe(false);
    expect(matches('unknown_tool')).toBe(true);
    expect(matches('other')).toBe(false);
  });

  it('requires every restriction of an intersection, and an empty restriction admits nothing', () => {
    const both = intersectToolAllowlists([['group:fs'], ['read', 'exec']]);
    const matches = createToolPolicyMatcher({ allow: both });
    expect(matches('read')).toBe(true);
    expect(matches('exec')).toBe(false);
    expect(matches('write')).toBe(false);
    expect(createToolPolicyMatcher({ allow: intersectToolAllowlists([['read'], []]) })('read')).toBe(false);
    expect(both).toEqual(['group:fs', 'read', 'exec']);
  });

  it('always lets deny win (property)', () => {
    const name = fc.constantFrom('read', 'write', 'exec', 'bash', 'apply_patch', 'message', 'x_y', 'group:fs', '*', 'e*');
    fc.assert(fc.property(fc.array(name), fc.array(name, { minLength: 1 }), name, (allow, deny, probe) => {
      const matches = createToolPolicyMatcher({ allow, deny });
      if (!createToolPolicyMatcher({ deny })(probe)) expect(matches(probe)).toBe(false);
    }));
  });

  it('with an empty allow list allows exactly what deny does not deny (property)', () => {
    const name = fc.constantFrom('read', 'write', 'exec', 'bash', 'group:fs', 'e*', 'unknown');
    fc.assert(fc.property(fc.array(name), name, (deny, probe) => {
      expect(createToolPolicyMatcher({ allow: [], deny })(probe)).toBe(createToolPolicyMatcher({ deny })(probe));
    }));
  });
});

describe('applyEmbeddedAttemptToolsAllow', () => {
  const tools = [{ name: 'read' }, { name: 'exec' }, { name: 'Search', plugin: 'Web-Tools' }, { name: 'fetch', plugin: 'web-tools' }, { name: 'srv__q', plugin: 'bundle-mcp' }];
  const toolMeta = (tool: { plugin?: string }) => (tool.plugin ? { pluginId: tool.plugin } : undefined);

  it('keeps every tool, as the same array, when the allowlist is undefined', () => {
    expect(applyEmbeddedAttemptToolsAllow(tools, undefined)).toBe(tools);
  });

  it('disables every tool for an explicit empty list', () => {
    expect(applyEmbeddedAttemptToolsAllow(tools, [])).toEqual([]);
  });

  it('skips a restriction that contains *', () => {
    expect(applyEmbeddedAttemptToolsAllow(tools, ['read', ' * '])).toEqual(tools);
  });

  it('returns the original tool objects in order', () => {
    const kept = applyEmbeddedAttemptToolsAllow(tools, ['EXEC', 'read']);
    expect(kept).toEqual([tools[0], tools[1]]);
    expect(kept[0]).toBe(tools[0]);
  });

  it('expands plugin ids in mixed case and group:plugins only when toolMeta is given', () => {
    expect(applyEmbeddedAttemptToolsAllow(tools, ['WEB-TOOLS'], { toolMeta }).map((t) => t.name)).toEqual(['Search', 'fetch']);
    expect(applyEmbeddedAttemptToolsAllow(tools, ['web-tools'])).toEqual([]);
    expect(applyEmbeddedAttemptToolsAllow(tools, ['group:plugins'], { toolMeta }).map((t) => t.name)).toEqual(['Search', 'fetch', 'srv__q']);
    expect(applyEmbeddedAttemptToolsAllow(tools, ['bundle-mcp'], { toolMeta }).map((t) => t.name)).toEqual(['srv__q']);
  });

  it('admits a tool on any alias from toolAliases', () => {
    const kept = applyEmbeddedAttemptToolsAllow(tools, ['shell'], { toolAliases: (t) => (t.name === 'exec' ? ['shell'] : []) });
    expect(kept).toEqual([tools[1]]);
  });

  it('requires each independent restriction separately', () => {
    const allow = intersectToolAllowlists([['read', 'exec'], ['group:runtime']]);
    expect(applyEmbeddedAttemptToolsAllow(tools, allow)).toEqual([tools[1]]);
    expect(applyEmbeddedAttemptToolsAllow(tools, intersectToolAllowlists([['*'], ['read']]))).toEqual([tools[0]]);
  });

  it('lets update_plan admit progress_card and canvas admit show_widget, as the reference release does', () => {
    const uiTools = [{ name: 'progress_card' }, { name: 'update_plan' }, { name: 'canvas' }, { name: 'show_widget' }];
    expect(applyEmbeddedAttemptToolsAllow(uiTools, ['update_plan']).map((t) => t.name)).toEqual(['progress_card']);
    expect(applyEmbeddedAttemptToolsAllow(uiTools, ['canvas']).map((t) => t.name)).toEqual(['canvas', 'show_widget']);
  });

  it('never adds a tool (property)', () => {
    const name = fc.constantFrom('read', 'exec', 'bash', 'search', 'web-tools', 'group:plugins', 'group:fs', '*', 'e*');
    fc.assert(fc.property(fc.option(fc.array(name), { nil: undefined }), (allow) => {
      const kept = applyEmbeddedAttemptToolsAllow(tools, allow, { toolMeta });
      expect(kept.every((tool) => tools.includes(tool))).toBe(true);
      expect(kept.length).toBeLessThanOrEqual(tools.length);
    }));
  });

  it('names the tool when toolMeta throws', () => {
    expect(() => applyEmbeddedAttemptToolsAllow(tools, ['read'], { toolMeta: () => { throw new Error('boom'); } })).toThrow(/tools\[0\]/);
  });
});

describe('splitSandboxBindSpec', () => {
  it('splits host, container and options', () => {
    expect(splitSandboxBindSpec('/src:/dst:ro')).toEqual({ host: '/src', container: '/dst', options: 'ro' });
    expect(splitSandboxBindSpec('/src:/dst')).toEqual({ host: '/src', container: '/dst', options: '' });
    expect(splitSandboxBindSpec('/src:/dst:ro:z')).toEqual({ host: '/src', container: '/dst', options: 'ro:z' });
  });

  it('returns null when there is no separator', () => {
    expect(splitSandboxBindSpec('/only-host')).toBeNull();
    expect(splitSandboxBindSpec('')).toBeNull();
  });

  it('keeps a Windows drive prefix on the host side, with either slash', () => {
    expect(splitSandboxBindSpec('C:\\data:/data:ro')).toEqual({ host: 'C:\\data', container: '/data', options: 'ro' });
    expect(splitSandboxBindSpec('c:/data:/data')).toEqual({ host: 'c:/data', container: '/data', options: '' });
    expect(splitSandboxBindSpec('C:data:/x')).toEqual({ host: 'C', container: 'data', options: '/x' });
  });

  it('keeps a drive prefix on the container side only when allowed', () => {
    expect(splitSandboxBindSpec('C:\\a:D:\\b:rw')).toEqual({ host: 'C:\\a', container: 'D', options: '\\b:rw' });
    expect(splitSandboxBindSpec('C:\\a:D:\\b:rw', { allowWindowsContainerPath: true })).toEqual({ host: 'C:\\a', container: 'D:\\b', options: 'rw' });
  });

  it('does not treat a UNC host path specially', () => {
    expect(splitSandboxBindSpec('\\\\srv\\share:/mnt')).toEqual({ host: '\\\\srv\\share', container: '/mnt', options: '' });
  });

  it('rejects a non-string spec with a typed error', () => {
    expect(() => splitSandboxBindSpec(42 as never)).toThrow(PolicyInputError);
  });
});

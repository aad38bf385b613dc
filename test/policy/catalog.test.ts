import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_MESSAGE_ACTION_NAMES,
  CORE_TOOL_GROUPS,
  CORE_TOOL_PROFILES,
  TOOL_NAME_ALIASES,
  isKnownCoreToolId,
  listCoreToolSections,
  resolveCoreToolProfilePolicy,
} from '../../protocol/vocabulary/index.js';

const reference = JSON.parse(readFileSync(new URL('../fixtures/reference/catalog.json', import.meta.url), 'utf8'));

describe('the core vocabulary', () => {
  it('derives every reference group with the same members in the same order', () => {
    for (const [group, members] of Object.entries(reference.coreToolGroups)) {
      expect(CORE_TOOL_GROUPS.get(group), group).toEqual(members);
    }
  });

  it('names the all-core-tools group group:core and keeps group:openclaw as an alias of it', () => {
    expect(CORE_TOOL_GROUPS.get('group:core')).toEqual(reference.coreToolGroups['group:openclaw']);
    expect(CORE_TOOL_GROUPS.get('group:core')).not.toContain('canvas');
  });

  it('derives the four profiles exactly as the reference release lists them', () => {
    for (const [profile, policy] of Object.entries(reference.profiles)) {
      expect(CORE_TOOL_PROFILES.get(profile as never)?.allow, profile).toEqual((policy as { allow: string[] }).allow);
    }
  });

  it('resolves a profile to a fresh copy, and an unknown or empty profile to no restriction', () => {
    const a = resolveCoreToolProfilePolicy('coding');
    a!.allow.push('mutated');
    expect(resolveCoreToolProfilePolicy('coding')!.allow).not.toContain('mutated');
    expect(resolveCoreToolProfilePolicy('nope')).toBeUndefined();
    expect(resolveCoreToolProfilePolicy('')).toBeUndefined();
    expect(resolveCoreToolProfilePolicy(undefined)).toBeUndefined();
    expect(resolveCoreToolProfilePolicy('full')).toEqual({ allow: ['*'] });
  });

  it('keeps the reference aliases bash, apply-patch and cron', () => {
    expect(Object.fromEntries(TOOL_NAME_ALIASES)).toEqual(reference.toolNameAliases);
  });

  it('lists sections in UI order with their tools', () => {
    const sections = listCoreToolSections();
    expect(sections.map((s) => s.id)).toEqual(reference.coreToolSections.map((s: { id: string }) => s.id));
    expect(sections[0].tools).toEqual(['ls', 'read', 'write', 'edit', 'apply_patch']);
    expect(isKnownCoreToolId('exec')).toBe(true);
    expect(isKnownCoreToolId('bash')).toBe(false);
  });

  it('refuses to add a core group, a profile, an alias or a message action at runtime', () => {
    expect(() => (CORE_TOOL_GROUPS as Map<string, string[]>).set('group:mine', ['x'])).toThrow(/closed/);
    expect(() => (CORE_TOOL_GROUPS as Map<string, string[]>).delete('group:fs')).toThrow(/closed/);
    expect(() => (CORE_TOOL_PROFILES as Map<string, unknown>).clear()).toThrow(/closed/);
    expect(() => (TOOL_NAME_ALIASES as Map<string, string>).set('sh', 'exec')).toThrow(/closed/);
    expect(() => (CHANNEL_MESSAGE_ACTION_NAMES as string[]).push('teleport')).toThrow(TypeError);
    expect(() => (CORE_TOOL_GROUPS.get('group:fs') as string[]).push('x')).toThrow(TypeError);
    expect(CHANNEL_MESSAGE_ACTION_NAMES).toEqual(reference.channelMessageActionNames);
  });
});

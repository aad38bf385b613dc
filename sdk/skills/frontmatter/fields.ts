/**
 * The SKILL.md frontmatter contract (SPEC §6.1): what a skill is called, what it is for, who
 * may invoke it, an optional slash-command binding to a tool, and its manifest.
 */
import type { SkillEntry } from '../../../protocol/index.js';
import { readManifest } from './manifest.js';
import { namingWarnings, unusableNameReason } from './naming.js';
import { readBoolean, readString } from './values.js';

export type SkillFields = Pick<SkillEntry, 'name' | 'description' | 'userInvocable' | 'disableModelInvocation' | 'command' | 'manifest'> & {
  name: string;
  description: string;
  warnings: string[];
};

export type FieldsResult = { ok: true; fields: SkillFields } | { ok: false; reason: 'missing-description' | 'invalid-name'; detail: string };

// Tool names as tools contribute them (including MCP bridge names such as `github__create_issue`).
const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

function flag(data: Record<string, unknown>, key: string, fallback: boolean, warnings: string[]): boolean {
  const value = readBoolean(data[key]);
  if (value === null) warnings.push(`${key} is not a boolean; using ${fallback}`);
  return value ?? fallback;
}

function commandBinding(data: Record<string, unknown>, warnings: string[]): SkillEntry['command'] {
  const dispatch = data['command-dispatch'];
  if (dispatch === undefined) return undefined;
  if (dispatch !== 'tool') {
    warnings.push(`command-dispatch "${String(dispatch).slice(0, 40)}" is not supported (only "tool"); ignored`);
    return undefined;
  }
  const tool = readString(data['command-tool']);
  if (!tool || !TOOL_NAME.test(tool)) {
    warnings.push('command-dispatch: tool needs a valid command-tool; ignored');
    return undefined;
  }
  const argMode = data['command-arg-mode'];
  if (argMode !== undefined && argMode !== 'raw') warnings.push(`command-arg-mode "${String(argMode).slice(0, 40)}" is not supported; using raw`);
  return { dispatch: 'tool', tool, argMode: 'raw' };
}

export function readSkillFields(data: Record<string, unknown>, dirName: string): FieldsResult {
  const description = readString(data.description);
  if (description === undefined) return { ok: false, reason: 'missing-description', detail: 'description is required' };
  const name = readString(data.name) ?? dirName;
  const unusable = unusableNameReason(name);
  if (unusable) return { ok: false, reason: 'invalid-name', detail: unusable };
  const warnings = namingWarnings(name, description);
  if (data.name !== undefined && readString(data.name) === undefined) warnings.push('name is not a non-empty string; using the directory name');
  const manifest = readManifest(data.metadata);
  warnings.push(...manifest.warnings);
  return {
    ok: true,
    fields: {
      name,
      description,
      userInvocable: flag(data, 'user-invocable', true, warnings),
      disableModelInvocation: flag(data, 'disable-model-invocation', false, warnings),
      command: commandBinding(data, warnings),
      manifest: manifest.manifest,
      warnings,
    },
  };
}

/**
 * Skill names. A name with a control character or a path separator cannot be shown or used
 * safely and excludes the skill; the Agent Skills naming rules are only warnings.
 */
import { CONTROL_CHARS } from './values.js';

export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 1024;
/** Beyond this a name is refused outright (the rules above only warn). */
const HARD_NAME_LIMIT = 200;

/** Why a name cannot be used at all, or undefined. */
export function unusableNameReason(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (CONTROL_CHARS.test(name) || /[\n\t]/.test(name)) return 'the name contains a control character';
  if (/[/\\]/.test(name)) return 'the name contains a path separator';
  if (name.length > HARD_NAME_LIMIT) return `the name is longer than ${HARD_NAME_LIMIT} characters`;
  return undefined;
}

/** The Agent Skills naming rules, as warnings. */
export function namingWarnings(name: string, description: string): string[] {
  const warnings: string[] = [];
  if (name.length > MAX_NAME_CHARS) warnings.push(`name is longer than ${MAX_NAME_CHARS} characters`);
  if (!/^[a-z0-9-]*$/.test(name)) warnings.push('name should use only lowercase letters, digits and hyphens');
  if (name.startsWith('-') || name.endsWith('-')) warnings.push('name should not start or end with a hyphen');
  if (name.includes('--')) warnings.push('name should not contain "--"');
  if (description.length > MAX_DESCRIPTION_CHARS) warnings.push(`description is longer than ${MAX_DESCRIPTION_CHARS} characters`);
  return warnings;
}

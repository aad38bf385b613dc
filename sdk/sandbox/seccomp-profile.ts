import { readFileSync } from 'node:fs';
import { SandboxError } from './errors.js';

/**
 * `sandbox.docker.seccompProfile`: `unconfined`, or an absolute path to a seccomp JSON profile.
 * The engine API takes the profile's JSON itself (the docker CLI reads the file the same way),
 * so the file is read here, checked, and its content sent; a changed file changes the plan.
 */
export type SeccompProfile = { kind: 'unconfined' } | { kind: 'file'; path: string; json: string; allowsEverything: boolean };

// Actions that let a system call through; a profile made only of these filters nothing.
const PERMISSIVE_ACTIONS = new Set(['SCMP_ACT_ALLOW', 'SCMP_ACT_LOG']);

function invalid(value: string, why: string, cause?: unknown): SandboxError {
  return new SandboxError('CONFIG_INVALID', `sandbox.docker.seccompProfile "${value}" ${why}. Give an absolute path to a seccomp JSON profile, or remove the setting to keep the engine's default profile.`, { cause, data: { key: 'seccompProfile', value } });
}

export function loadSeccompProfile(value: string, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): SeccompProfile {
  const trimmed = value.trim();
  if (trimmed.toLowerCase() === 'unconfined') return { kind: 'unconfined' };
  if (!trimmed.startsWith('/')) throw invalid(value, 'is not an absolute path');
  let text: string;
  try {
    text = read(trimmed);
  } catch (cause) {
    throw invalid(value, `cannot be read (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`, cause);
  }
  let profile: { defaultAction?: unknown; syscalls?: Array<{ action?: unknown }> };
  try {
    profile = JSON.parse(text) as typeof profile;
  } catch (cause) {
    throw invalid(value, 'is not valid JSON', cause);
  }
  if (typeof profile !== 'object' || profile === null || typeof profile.defaultAction !== 'string') {
    throw invalid(value, 'has no "defaultAction"; it is not a seccomp profile');
  }
  const actions = [profile.defaultAction, ...(Array.isArray(profile.syscalls) ? profile.syscalls.map((s) => s?.action) : [])];
  const allowsEverything = actions.every((a) => typeof a === 'string' && PERMISSIVE_ACTIONS.has(a));
  return { kind: 'file', path: trimmed, json: JSON.stringify(profile), allowsEverything };
}

/**
 * Config writes for the system tool: a JSON merge patch (RFC 7386) or a whole replacement,
 * validated with the same checks as `pincer config check` before anything is written, guarded
 * by an optional hash of the file the caller read, and written atomically (temp file, fsync,
 * rename): an invalid or conflicting write leaves the file as it was.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { checkConfig } from '../config/validate.js';

export class ConfigWriteError extends Error {
  override readonly name = 'ConfigWriteError';
  constructor(
    readonly code: 'CONFIG_INVALID' | 'CONFLICT' | 'INVALID_PARAMS' | 'CONFIG_UNREADABLE',
    message: string,
  ) {
    super(message);
  }
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function hashText(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** RFC 7386: null deletes, objects merge, anything else replaces. Records the paths it touches. */
export function applyMergePatch(target: unknown, patch: unknown, path: string[] = [], changed: string[] = []): unknown {
  if (!isObject(patch)) {
    changed.push(path.join('.') || '(root)');
    return patch;
  }
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (UNSAFE_KEYS.has(key)) throw new ConfigWriteError('INVALID_PARAMS', `patch key "${key}" is not allowed`);
    if (value === null) {
      if (Object.hasOwn(out, key)) changed.push([...path, key].join('.'));
      delete out[key];
    } else out[key] = applyMergePatch(out[key], value, [...path, key], changed);
  }
  return out;
}

export function readConfigText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigWriteError('CONFIG_UNREADABLE', `cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Validates `next` and writes it in place of `file` if the file still hashes to `baseHash`. */
export function writeConfigAtomically(configPath: string, next: unknown, baseHash: string | undefined): string {
  const current = readConfigText(configPath);
  // Replace the file a symlink points at, not the link: the operator's layout stays as it was.
  const file = realpathSync(configPath);
  if (baseHash !== undefined && baseHash !== hashText(current)) throw new ConfigWriteError('CONFLICT', `${basename(file)} changed since it was read (expected ${baseHash}); read it again and redo the change`);
  const checked = checkConfig(next);
  if (!checked.ok) throw new ConfigWriteError('CONFIG_INVALID', `the resulting config is invalid; nothing was written:\n${checked.issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}`);
  const text = `${JSON.stringify(next, null, 2)}\n`;
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', statSync(file).mode & 0o777);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, file);
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return hashText(text);
}

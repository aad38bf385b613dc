import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdProtectedPaths } from '../../sdk/protected-paths/placeholders.js';
import { scratch } from '../redteam/helpers.js';

/** The placeholders that keep a missing protected path from being created by a confined command. */
describe('holdProtectedPaths', () => {
  it('creates a missing protected path (and parents) for the hold, keeps it while another hold lasts, removes it after the last', () => {
    const ws = scratch('hold');
    const first = holdProtectedPaths(ws, ['.pincer', 'conf/pincer.json']);
    const second = holdProtectedPaths(ws, ['.pincer']);
    expect(first.readOnly).toEqual([path.join(ws, '.pincer'), path.join(ws, 'conf/pincer.json')]);
    expect(first.ancestors).toEqual([path.join(ws, 'conf')]);
    first.release();
    expect(existsSync(path.join(ws, '.pincer'))).toBe(true); // the second command still relies on it
    expect(existsSync(path.join(ws, 'conf'))).toBe(false);
    second.release();
    expect(existsSync(path.join(ws, '.pincer'))).toBe(false);
  });

  it('leaves what a host process put into a placeholder, and existing paths alone', () => {
    const ws = scratch('hold-keep');
    mkdirSync(path.join(ws, '.git'));
    const held = holdProtectedPaths(ws, ['.git', 'data/.pincer']);
    writeFileSync(path.join(ws, 'data', 'note'), 'written meanwhile');
    held.release();
    expect(existsSync(path.join(ws, '.git'))).toBe(true);
    expect(existsSync(path.join(ws, 'data', 'note'))).toBe(true);
    expect(existsSync(path.join(ws, 'data', '.pincer'))).toBe(false);
  });

  it('never creates through a symbolic link out of the workspace, nor binds such a parent', () => {
    const ws = scratch('hold-link');
    const outside = scratch('hold-outside');
    symlinkSync(outside, path.join(ws, 'conf'));
    const held = holdProtectedPaths(ws, ['conf/sub/pincer.json']);
    expect(existsSync(path.join(outside, 'sub'))).toBe(false);
    expect(held.ancestors).toEqual([]);
    held.release();
  });

  it('refuses a protected path that is a dangling symbolic link (it cannot be mounted read-only)', () => {
    const ws = scratch('hold-dangling');
    symlinkSync(path.join(ws, 'nowhere'), path.join(ws, '.pincer'));
    expect(() => holdProtectedPaths(ws, ['.pincer'])).toThrow(expect.objectContaining({ code: 'SECURITY_VIOLATION' }));
  });
});

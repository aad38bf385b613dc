import { describe, expect, it } from 'vitest';
import { normalizeProtectedPaths, pathSyntaxProblem, protectedPathsForMount, protectedRelation } from '../../sdk/fs-bridge/index.js';

describe('protected paths (pure rules every backend applies)', () => {
  it('normalizes entries to relative POSIX paths', () => {
    expect(normalizeProtectedPaths(['./.git/', 'Conf\\Pincer.json', '.pincer', '.git'])).toEqual(['.git', 'Conf/Pincer.json', '.pincer']);
  });

  it('refuses an entry that is absolute, leaves the workspace or names all of it, naming the entry', () => {
    expect(() => normalizeProtectedPaths(['.git', '/etc'])).toThrow('protectedPaths[1] "/etc" must be relative to the workspace');
    expect(() => normalizeProtectedPaths(['../x'])).toThrow(/leaves the workspace/);
    expect(() => normalizeProtectedPaths(['a/../..'])).toThrow(/leaves the workspace/);
    expect(() => normalizeProtectedPaths(['./'])).toThrow(/whole workspace/);
    expect(() => normalizeProtectedPaths(['C:\\x'])).toThrow(/absolute/);
  });

  it('tells inside, ancestor and unrelated canonical paths apart, without regard to ASCII case', () => {
    const set = ['/ws/.git', '/ws/conf/pincer.json'];
    expect(protectedRelation(set, '/ws/.git')).toBe('inside');
    expect(protectedRelation(set, '/ws/.GIT/hooks/pre-commit')).toBe('inside');
    expect(protectedRelation(set, '/ws/conf')).toBe('ancestor');
    expect(protectedRelation(set, '/ws')).toBe('ancestor');
    expect(protectedRelation(set, '/ws/.gitignore')).toBe('none');
    expect(protectedRelation(set, '/ws/conf/other.json')).toBe('none');
    expect(protectedRelation([], '/ws/.git')).toBe('none');
  });

  it('carries the protection into a mount of part of the workspace, or of a protected directory', () => {
    expect(protectedPathsForMount('/ws', '/ws', ['.git', 'conf/p.json'])).toEqual(['.git', 'conf/p.json']);
    expect(protectedPathsForMount('/ws', '/ws/conf', ['.git', 'conf/p.json'])).toEqual(['p.json']);
    expect(protectedPathsForMount('/ws', '/ws/.git/hooks', ['.git'])).toEqual(['']);
    expect(protectedPathsForMount('/ws', '/elsewhere', ['.git'])).toEqual([]);
  });
});

describe('path limits', () => {
  it('names a NUL byte, an over-long component and an over-long path', () => {
    expect(pathSyntaxProblem('a\0b')).toMatch(/NUL/);
    expect(pathSyntaxProblem(`d/${'é'.repeat(128)}`)).toMatch(/256 bytes long; file names are limited to 255 bytes/);
    expect(pathSyntaxProblem('x/'.repeat(2048))).toMatch(/4096 bytes long; paths are limited to 4095 bytes/);
    expect(pathSyntaxProblem(`${'n'.repeat(255)}`)).toBeNull();
  });
});

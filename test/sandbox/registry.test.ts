import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFileSandboxRegistry, type SandboxRegistryEntry } from '../../sdk/sandbox/registry.js';
import { tempDir } from './services.js';

const entry = (name: string, lastUsedAtMs = 1): SandboxRegistryEntry => ({ name, backendId: 'docker', scopeKey: `agent:${name}`, createdAtMs: 1, lastUsedAtMs });
const mode = (path: string) => statSync(path).mode & 0o777;

describe('the sandbox registry file', () => {
  it('is owner-only in an owner-only directory, since it holds session keys', () => {
    const file = join(tempDir('reg'), 'state', 'containers.json');
    new JsonFileSandboxRegistry(file).set(entry('a'));
    expect(mode(file)).toBe(0o600);
    expect(mode(join(file, '..'))).toBe(0o700);
  });

  it('replaces a planted symlink at its path instead of writing through it', () => {
    const dir = tempDir('reg-link');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, join(dir, 'containers.json'));
    // Reading through the symlink is refused: it might point at anything.
    expect(() => new JsonFileSandboxRegistry(join(dir, 'containers.json'))).toThrow(expect.objectContaining({ code: 'REGISTRY_CORRUPT', message: expect.stringContaining('symbolic link') }));
    const file = join(dir, 'real', 'containers.json');
    mkdirSync(join(dir, 'real'));
    const registry = new JsonFileSandboxRegistry(file);
    // A link planted after the registry opened is refused too, and nothing is written through it.
    symlinkSync(victim, file);
    expect(() => registry.set(entry('a'))).toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(readdirSync(join(dir, 'real')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('reports a corrupt file with its name and the fix, and leaves it as it is', () => {
    const file = join(tempDir('reg-bad'), 'containers.json');
    writeFileSync(file, '{"entries": [ {"name": "a", ');
    expect(() => new JsonFileSandboxRegistry(file)).toThrow(expect.objectContaining({ code: 'REGISTRY_CORRUPT', message: expect.stringMatching(/containers\.json is not valid JSON\. It was left as it is\. Move it aside or delete it/) }));
    writeFileSync(file, JSON.stringify({ entries: [{ name: 'a', lastUsedAtMs: 'yesterday' }] }));
    expect(() => new JsonFileSandboxRegistry(file)).toThrow(/invalid entry at entries\[0\]/);
    expect(readFileSync(file, 'utf8')).toContain('yesterday');
  });

  it('does not trust a file another user owns or can write: it could steer prune', () => {
    const file = join(tempDir('reg-foreign'), 'containers.json');
    writeFileSync(file, JSON.stringify({ entries: [entry('planted', Date.now())] }));
    chmodSync(file, 0o666);
    expect(() => new JsonFileSandboxRegistry(file)).toThrow(/is writable by other users \(mode 666\)/);
    chmodSync(file, 0o600);
    chownSync(file, 12345, 12345); // the tests run as root, which may hand the file to someone else
    expect(() => new JsonFileSandboxRegistry(file)).toThrow(/is owned by uid 12345, not by this user/);
  });

  it('keeps the entries another process wrote since it was opened', () => {
    const file = join(tempDir('reg-two'), 'containers.json');
    const serve = new JsonFileSandboxRegistry(file);
    const cli = new JsonFileSandboxRegistry(file);
    serve.set(entry('a', 10));
    cli.set(entry('b', 20));
    serve.set(entry('a', 30));
    const again = new JsonFileSandboxRegistry(file);
    expect(again.list().map((e) => [e.name, e.lastUsedAtMs]).sort()).toEqual([['a', 30], ['b', 20]]);
    cli.delete('a');
    expect(new JsonFileSandboxRegistry(file).list().map((e) => e.name)).toEqual(['b']);
    // A use only moves the last-use time forward, keeping what another process recorded.
    cli.set({ ...entry('b', 20), createdAtMs: 5 });
    serve.touch('b', 40);
    serve.touch('b', 35);
    serve.touch('unknown', 50);
    expect(new JsonFileSandboxRegistry(file).list()).toEqual([{ ...entry('b', 40), createdAtMs: 5 }]);
  });

  it('tightens a file an older version left world-readable on its next write', () => {
    const file = join(tempDir('reg-old'), 'containers.json');
    writeFileSync(file, JSON.stringify({ entries: [entry('old')] }));
    chmodSync(file, 0o644);
    new JsonFileSandboxRegistry(file).set(entry('new'));
    expect(mode(file)).toBe(0o600);
    expect(existsSync(file)).toBe(true);
  });
});

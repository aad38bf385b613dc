import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SshSettings } from '../../plugins/sandbox-ssh/src/settings.js';
import { SshWorkspace, type SshWorkspaceOptions } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import type { WorkspaceAccess } from '../../sdk/sandbox/mounts.js';
import { sshSettings, tempDir } from './services.js';

/**
 * Helpers of the ssh suites. The test sshd runs on this machine, so "the remote" is this
 * machine's file system as the ssh user sees it: the suites read the remote copies directly
 * to check what really arrived there. Each suite keeps its copies under a root of its own.
 */
export function sshRoot(suite: string): string {
  return `/tmp/pincer-ssh-test-${process.pid}-${suite}`;
}

export function removeRoot(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

let sessions = 0;

export interface OpenOptions extends SshWorkspaceOptions {
  access?: WorkspaceAccess;
  settings?: Partial<SshSettings>;
  agentWorkspaceDir?: string;
}

/** Opens a session on the test sshd with its own data directory unless one is given. */
export function openSsh(root: string, hostDir: string, options: OpenOptions = {}): Promise<SshWorkspace> {
  const { access = 'rw', settings, agentWorkspaceDir, ...rest } = options;
  return SshWorkspace.open(sshSettings({ remoteRoot: root, ...settings }), {
    sessionKey: `ssh-test:${process.pid}:${++sessions}`, agentId: 'main', workspaceDir: hostDir, agentWorkspaceDir, workspaceAccess: access,
  }, { dataDir: tempDir('ssh-data'), ...rest });
}

/** A small workspace: a few files, a nested directory and a skill. */
export function smallWorkspace(): string {
  const dir = tempDir('ssh-ws');
  writeFileSync(join(dir, 'hello.txt'), 'hello world\n');
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'lib', 'b.ts'), 'export const b = 2;\n');
  mkdirSync(join(dir, 'skills', 'demo'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'demo', 'SKILL.md'), '---\nname: demo\n---\nDo things.\n');
  return dir;
}

/** `count` files of `size` bytes spread over directories of 100. */
export function manyFiles(count: number, size = 64): string {
  const dir = tempDir('ssh-many');
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(sub);
    writeFileSync(join(sub, `f${i}.txt`), `${i}`.padEnd(size, '.'));
  }
  return dir;
}

/** Every entry under `dir` (except the listed top-level names): file → content hash, link → target, dir → 'dir'. */
export function treeOf(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (!rel && skip.includes(name)) continue;
      const abs = join(dir, path);
      const stat = lstatSync(abs);
      if (stat.isSymbolicLink()) out[path] = `-> ${readlinkSync(abs)}`;
      else if (stat.isDirectory()) { out[path] = 'dir'; walk(path); }
      else out[path] = createHash('sha256').update(readFileSync(abs)).digest('hex').slice(0, 16);
    }
  };
  walk('');
  return out;
}

/** Polls until `check` holds (no fixed sleeps: the machine is loaded). */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'NO_ERROR';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

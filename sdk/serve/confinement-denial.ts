/**
 * Inside the kernel's sandbox, an undeclared access fails as a bare errno (ENOENT for a path
 * that is absent from the sandbox, EROFS for a write to a read-only one, EPERM for a fork,
 * ENETUNREACH for a socket). This names it: which plugin tried what, outside its declaration.
 */
import path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import { CONFINEMENT_ENV } from '../../protocol/v1/confinement.js';
import { PLUGIN_ID_ENV, ProtocolErrorCodes, type ProtocolErrorData } from '../../protocol/index.js';

interface Grants {
  paths: Array<{ path: string; access: 'ro' | 'rw' }>;
  network: unknown;
  spawn: boolean;
}

function grantsFromEnv(env: NodeJS.ProcessEnv): Grants | undefined {
  const raw = env[CONFINEMENT_ENV];
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Grants;
  } catch {
    return undefined;
  }
}

const within = (p: string, root: string) => p === root || p.startsWith(root === '/' ? '/' : `${root}/`);
const PATH_ERRORS = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);
const NET_ERRORS = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/** What the plugin tried, when `error` is the sandbox refusing something undeclared; else undefined. */
export function describeDenial(error: unknown, env: NodeJS.ProcessEnv = process.env): { operation: string; target: string } | undefined {
  const grants = grantsFromEnv(env);
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string; spawnargs?: string[] };
  if (!grants || !(error instanceof Error) || typeof e.code !== 'string') return undefined;
  if (typeof e.syscall === 'string' && e.syscall.startsWith('spawn') && !grants.spawn && (e.code === 'EPERM' || e.code === 'EAGAIN')) {
    return { operation: 'start a process', target: e.path ?? e.syscall.slice(6) };
  }
  if (typeof e.path === 'string' && PATH_ERRORS.has(e.code)) {
    const target = path.resolve(e.path);
    const writing = e.code === 'EROFS' || /write|open|mkdir|rename|unlink|rmdir|symlink|link|chmod|copy/.test(e.syscall ?? '');
    const grant = grants.paths.filter((g) => within(target, g.path)).sort((a, b) => b.path.length - a.path.length)[0];
    if (!grant) return { operation: writing && e.code !== 'ENOENT' ? 'write' : 'reach', target };
    if (e.code === 'EROFS' && grant.access === 'ro') return { operation: 'write', target };
    return undefined;
  }
  if (NET_ERRORS.has(e.code) && grants.network !== 'host') {
    const host = e.address ?? e.hostname ?? 'a network address';
    return { operation: 'connect to', target: e.port !== undefined ? `${host}:${e.port}` : host };
  }
  return undefined;
}

/** The wire error for a denial, naming the plugin and what it tried. */
export function confinementDenied(error: unknown, tool?: string, env: NodeJS.ProcessEnv = process.env): ResponseError<ProtocolErrorData> | undefined {
  const denial = describeDenial(error, env);
  if (!denial) return undefined;
  const plugin = env[PLUGIN_ID_ENV] ?? 'this plugin';
  const message = `confinement: plugin "${plugin}" tried to ${denial.operation} ${denial.target}, which its manifest does not declare (${(error as Error).message})`;
  return new ResponseError(ProtocolErrorCodes.ConfinementDenied, message, { pluginId: plugin, tool, detail: denial });
}

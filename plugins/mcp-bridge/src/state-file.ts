/**
 * The bridge's own files (pins, catalog cache, OAuth tokens) in its private data directory:
 * `PINCER_PLUGIN_DATA_DIR` (owner-only, made by the kernel), else a private temp directory.
 * Files are written owner-only (0600) through a temp file and a rename, so a crash never leaves
 * half a file, and read back leniently (a missing or broken file is an empty one).
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const DATA_DIR_ENV = 'PINCER_PLUGIN_DATA_DIR';

let fallbackDir: string | undefined;

/** The data directory; `persistent` is false for the temp fallback (nothing survives a restart). */
export function bridgeDataDir(env: NodeJS.ProcessEnv = process.env): { dir: string; persistent: boolean } {
  const configured = env[DATA_DIR_ENV];
  if (configured) {
    mkdirSync(configured, { recursive: true, mode: 0o700 });
    return { dir: configured, persistent: true };
  }
  fallbackDir ??= mkdtempSync(join(tmpdir(), 'pincer-mcp-bridge-'));
  return { dir: fallbackDir, persistent: false };
}

export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

export function writeJsonFileAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/** Size and change time of a file, to notice an operator's edit cheaply ('' when missing). */
export function fileStamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return '';
  }
}

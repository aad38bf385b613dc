/**
 * The trail's files, in sdk/journal's layout: `<name>.jsonl` is appended to; rotated files are
 * `<name>.000001.jsonl`, `<name>.000002.jsonl`, ... (oldest first). Restated here because the
 * kernel may import only the SDK's policy part; `pincer audit tail` reads the trail with
 * sdk/journal's reader, and test/audit/audit-cli.test.ts fails if the two drift apart.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function activeFile(dir: string, name: string): string {
  return path.join(dir, `${name}.jsonl`);
}

export function rotatedFile(dir: string, name: string, index: number): string {
  return path.join(dir, `${name}.${String(index).padStart(6, '0')}.jsonl`);
}

/** Rotated files, oldest first, with their indexes (`name` is a plain word: no escaping needed). */
export function rotatedFiles(dir: string, name: string): { index: number; file: string }[] {
  if (!existsSync(dir)) return [];
  const pattern = new RegExp(`^${name}\\.(\\d{6,})\\.jsonl$`);
  return readdirSync(dir)
    .map((entry) => ({ entry, match: pattern.exec(entry) }))
    .filter((x): x is { entry: string; match: RegExpExecArray } => x.match !== null)
    .map(({ entry, match }) => ({ index: Number(match[1]), file: path.join(dir, entry) }))
    .sort((a, b) => a.index - b.index);
}

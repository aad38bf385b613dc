/**
 * The on-disk layout of an append-only JSONL journal: `<name>.jsonl` is the file being
 * appended to; rotated files are `<name>.000001.jsonl`, `<name>.000002.jsonl`, ... (oldest
 * first). A reader reads the rotated files in order, then the active one.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function activeFile(dir: string, name: string): string {
  return path.join(dir, `${name}.jsonl`);
}

export function rotatedFile(dir: string, name: string, index: number): string {
  return path.join(dir, `${name}.${String(index).padStart(6, '0')}.jsonl`);
}

/** Rotated files, oldest first, with their indexes. */
export function rotatedFiles(dir: string, name: string): { index: number; file: string }[] {
  if (!existsSync(dir)) return [];
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d{6,})\\.jsonl$`);
  return readdirSync(dir)
    .map((entry) => ({ entry, match: pattern.exec(entry) }))
    .filter((x): x is { entry: string; match: RegExpExecArray } => x.match !== null)
    .map(({ entry, match }) => ({ index: Number(match[1]), file: path.join(dir, entry) }))
    .sort((a, b) => a.index - b.index);
}

/** Every file of the journal, oldest first (the active file last, when it exists). */
export function journalFiles(dir: string, name: string): string[] {
  const active = activeFile(dir, name);
  return [...rotatedFiles(dir, name).map((r) => r.file), ...(existsSync(active) ? [active] : [])];
}

/** Complete records of one file's text; a last line without its newline was never acknowledged. */
export function parseLines(text: string): { records: unknown[]; corrupt: number } {
  const end = text.lastIndexOf('\n');
  const records: unknown[] = [];
  let corrupt = 0;
  for (const line of text.slice(0, end + 1).split('\n')) {
    if (!line) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      corrupt += 1;
    }
  }
  return { records, corrupt };
}

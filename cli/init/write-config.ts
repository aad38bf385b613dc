/**
 * Puts the starter config in place without ever losing a file: the text is written to a temp
 * file and loaded as the kernel would load it first; then it is linked in (create-only, so a file
 * that appeared meanwhile is not replaced) or, with --force, renamed over the old file, which is
 * kept as `<file>.bak`.
 */
import { constants, copyFileSync, existsSync, linkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../errors.js';

export interface WriteOutcome {
  /** Where the replaced file was saved (with --force over an existing one). */
  backup?: string;
}

function existsError(file: string): CliError {
  return new CliError('FILE_EXISTS', `${file} already exists; not replacing it`, {
    hint: 'Pass --force to replace it (the old file is kept as a .bak beside it), or --config F to write elsewhere.',
    data: { path: file },
  });
}

export async function writeStarterConfig(file: string, text: string, force: boolean, validate: (tempFile: string) => Promise<void>): Promise<WriteOutcome> {
  if (!force && existsSync(file)) throw existsError(file);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
  try {
    await validate(temp);
    if (!force) {
      try {
        linkSync(temp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw existsError(file);
        throw error;
      }
      return {};
    }
    const backup = existsSync(file) ? `${file}.bak` : undefined;
    // Copied beside it, then renamed over <file>.bak: a .bak that is a symlink is replaced, never written through.
    if (backup) {
      const copy = `${temp}.bak`;
      copyFileSync(file, copy, constants.COPYFILE_EXCL);
      renameSync(copy, backup);
    }
    renameSync(temp, file);
    return { backup };
  } finally {
    rmSync(temp, { force: true });
    rmSync(`${temp}.bak`, { force: true });
  }
}

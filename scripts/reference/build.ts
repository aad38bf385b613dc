/**
 * Writes (`--write`) or checks the generated reference pages under docs/reference/. Run from the
 * repository root after `npx tsc -p tsconfig.json`: node dist/scripts/reference/build.js --write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderErrorsDoc } from './errors-doc.js';
import { renderProfilesDoc } from './profiles-doc.js';

export const REFERENCE_PAGES: Record<string, () => string> = {
  'docs/reference/profiles-and-groups.md': renderProfilesDoc,
  'docs/reference/errors.md': renderErrorsDoc,
};

/** Pages whose file differs from what the code renders. */
export function stalePages(root: string): string[] {
  return Object.entries(REFERENCE_PAGES).filter(([page, render]) => {
    try {
      return readFileSync(join(root, page), 'utf8') !== render();
    } catch {
      return true;
    }
  }).map(([page]) => page);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  if (process.argv[2] === '--write') {
    for (const [page, render] of Object.entries(REFERENCE_PAGES)) writeFileSync(join(root, page), render());
    console.log(`wrote ${Object.keys(REFERENCE_PAGES).join(', ')}`);
  } else {
    const stale = stalePages(root);
    if (stale.length) {
      console.error(`out of date: ${stale.join(', ')}; run: node dist/scripts/reference/build.js --write`);
      process.exitCode = 1;
    }
  }
}

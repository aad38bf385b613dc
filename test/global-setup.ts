import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Compiles and bundles the project once before the integration tests, which spawn the compiled
 * fixture plugins (dist/test/fixtures/plugins/*.js). Type errors elsewhere in the tree do not stop the
 * run (tsc still emits); a missing fixture does.
 */
export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  // `npm test` compiles (and fails on type errors) before vitest starts; no second build.
  if (process.env.PINCER_BUILT === '1') return;
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    const out = String((error as { stdout?: Buffer }).stdout ?? '');
    process.stderr.write(`global-setup: tsc reported errors (continuing, output was emitted):\n${out.slice(0, 2000)}\n`);
  }
  const probe = path.join(root, 'dist/test/fixtures/plugins/echo.js');
  if (!existsSync(probe)) throw new Error(`global-setup: ${probe} was not built`);
  // As `npm run build` does: process entries run bundled (scripts/bundle-entries.mjs says why).
  const { bundleEntries } = (await import(pathToFileURL(path.join(root, 'scripts/bundle-entries.mjs')).href)) as { bundleEntries(): Promise<unknown> };
  await bundleEntries();
}

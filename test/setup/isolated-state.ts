import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Each test file gets its own state directory (`PINCER_STATE_DIR`: plugins' data directories,
 * the audit log). Without it, files running at the same time share `~/.pincer/state`, and one
 * file's shell plugin rewrites the run journal another file's restarted shell plugin reads back
 * (a run then answered NO_SUCH_RUN instead of RUN_LOST under load). An outer PINCER_STATE_DIR
 * (set by whoever runs the tests) is kept; a test that sets its own still wins for its children.
 */
const OWNED = 'PINCER_TEST_OWNS_STATE_DIR';
if (!process.env.PINCER_STATE_DIR || process.env[OWNED] === '1') {
  const dir = mkdtempSync(path.join(tmpdir(), 'pincer-test-state-'));
  process.env.PINCER_STATE_DIR = dir;
  process.env[OWNED] = '1';
  // Registered first, so it runs after the file's own afterAll hooks have stopped its kernels.
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}

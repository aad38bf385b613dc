import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunnableMarkerError, runnableBlocks } from '../../scripts/docs/runnable-blocks.js';
import { CLI, REPO, ensureBuilt } from '../cli/helpers/built-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The README and the guides (the generated reference has no commands to run). */
const FILES = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const BLOCKS = FILES.flatMap((file) => runnableBlocks(readFileSync(join(REPO, file), 'utf8')).map((block) => ({ file, ...block })));

/** A folder holding a `pincer` that runs this checkout's build, as an installed bin would. */
function pincerOnPath(): string {
  const bin = tempDir('pincer-docs-bin-');
  writeFileSync(join(bin, 'pincer'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, 'pincer'), 0o755);
  return bin;
}

beforeAll(ensureBuilt);

describe('runnable shell blocks of the README and the guides', () => {
  it('finds blocks to run, each marker followed by a shell block', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(4);
    expect(() => runnableBlocks('<!-- runnable -->\n\n```json\n{}\n```\n')).toThrow(RunnableMarkerError);
  });

  it.each(BLOCKS)('$file:$line exits 0 in a fresh workspace', ({ script }) => {
    const workspace = tempDir('pincer-docs-ws-');
    const state = join(workspace, '.state');
    mkdirSync(state);
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: workspace,
      env: { PATH: `${pincerOnPath()}:${process.env.PATH}`, HOME: process.env.HOME, NO_COLOR: '1', PINCER_STATE_DIR: state },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, `${script}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`).toBe(0);
  }, 150_000);
});

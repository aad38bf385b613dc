import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TempJournal } from '../../../sdk/fs-bridge/index.js';

/**
 * The journal of in-flight temp files, in the plugin's private data directory
 * (`PINCER_PLUGIN_DATA_DIR`, created owner-only by the host). Without one (a plugin run
 * by hand or in a test) a private temp directory serves, which forgets across restarts.
 */
export function openTempJournal(env: NodeJS.ProcessEnv = process.env): TempJournal {
  const dataDir = env.PINCER_PLUGIN_DATA_DIR || mkdtempSync(path.join(os.tmpdir(), 'pincer-sandbox-local-'));
  return new TempJournal(path.join(dataDir, 'pending-temps'));
}

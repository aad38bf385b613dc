// Writes dist/src/pincer-plugin.json (for lazy activation) from the plugin's own handshake answer,
// so the file and the live contributions cannot disagree. It lands beside the compiled entry
// (dist/src/main.js), where the kernel looks for a manifest when the config names only `module`.
import { writeFileSync } from 'node:fs';
import { createPluginTestHarness } from 'pincer/sdk/testing';
import { plugin } from './plugin.js';

const h = await createPluginTestHarness(plugin);
const { plugin: who, protocolVersion, contributes } = h.handshake;
await h.close();
const manifest = { id: who.id, version: who.version, protocolVersion, contributes };
writeFileSync(new URL('./pincer-plugin.json', import.meta.url), JSON.stringify(manifest, null, 2) + '\n');

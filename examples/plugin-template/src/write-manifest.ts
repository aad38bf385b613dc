// Writes dist/src/pincer-plugin.json from the plugin's definition (pluginManifest), so the file
// and the live contributions cannot disagree. It lands beside the compiled entry
// (dist/src/main.js), where the kernel looks for a manifest when the config names only `module`:
// it reads the confinement there before the process starts, and the tools for lazy activation.
import { writeFileSync } from 'node:fs';
import { pluginManifest } from 'pincer/sdk';
import { plugin } from './plugin.js';

writeFileSync(new URL('./pincer-plugin.json', import.meta.url), JSON.stringify(pluginManifest(plugin), null, 2) + '\n');

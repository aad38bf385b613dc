import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_PLUGINS, buildManifest, manifestFile } from '../../plugins/gen-manifests.js';
import { Contributions, PROTOCOL_VERSION } from '../../protocol/index.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('static plugin manifests', () => {
  for (const [folder, plugin] of Object.entries(BUNDLED_PLUGINS)) {
    it(`keeps plugins/${folder}/pincer-plugin.json identical to what the plugin serves`, () => {
      const onDisk = JSON.parse(readFileSync(manifestFile(root, folder), 'utf8'));
      // On a mismatch: npm run build && node dist/plugins/gen-manifests.js
      expect(onDisk).toEqual(buildManifest(plugin));
      expect(onDisk.protocolVersion).toBe(PROTOCOL_VERSION);
      expect(() => Contributions.parse(onDisk.contributes)).not.toThrow();
    });
  }

  it('gives every tool a description, an object schema and its family', () => {
    for (const plugin of Object.values(BUNDLED_PLUGINS)) {
      const tools = (buildManifest(plugin).contributes as { tools: { name: string; description: string; family: string; inputSchema: { type: string; properties: Record<string, { description?: string }> } }[] }).tools;
      for (const tool of tools) {
        expect(tool.description.length, tool.name).toBeGreaterThan(40);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.family).toBe(plugin.id);
        for (const [name, prop] of Object.entries(tool.inputSchema.properties)) expect(prop.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('contributes the fs and shell tools of the coding profile and the local backend', () => {
    const names = (id: string) => (buildManifest(BUNDLED_PLUGINS[id]!).contributes as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names('fs')).toEqual(['ls', 'read', 'write', 'edit', 'apply_patch']);
    expect(names('shell')).toEqual(['exec', 'process']);
    expect(buildManifest(BUNDLED_PLUGINS['sandbox-local']!).contributes).toMatchObject({ sandboxBackends: [{ id: 'local' }] });
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_FILE, configJsonSchema, renderConfigJsonSchema } from '../../kernel/config/json-schema.js';
import { ROOT } from './helpers.js';

describe("Pincer's published config JSON Schema", () => {
  it('is exactly what the zod config schema generates (regenerate: node dist/kernel/config/json-schema.js --write)', () => {
    expect(readFileSync(path.join(ROOT, CONFIG_SCHEMA_FILE), 'utf8')).toBe(renderConfigJsonSchema());
  });

  it('describes the whole config, refuses unknown keys, and ships in the package', () => {
    const schema = configJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }>; additionalProperties: unknown };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['plugins', 'tools', 'agents', 'groups', 'session', 'backendPlugins']));
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties.tools.properties ?? {})).toEqual(expect.arrayContaining(['message', 'gateway', 'sandbox', 'profile']));
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain(path.dirname(CONFIG_SCHEMA_FILE));
  });
});

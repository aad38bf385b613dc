import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, renderConfigJsonSchema } from '../../kernel/config/json-schema.js';

const root = resolve(import.meta.dirname, '../..');

describe('the published config JSON Schema', () => {
  it('is what the config schema generates (regenerate: node dist/kernel/config/json-schema.js --write)', () => {
    expect(readFileSync(join(root, 'schema/pincer.config.schema.json'), 'utf8')).toBe(renderConfigJsonSchema());
  });

  it('tells editors that comments are allowed, as the loader allows them', () => {
    expect(configJsonSchema()).toMatchObject({ allowComments: true, type: 'object', additionalProperties: false });
  });
});

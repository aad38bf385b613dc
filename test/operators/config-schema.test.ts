import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../kernel/config/json-schema.js';

// test/message/config-schema.test.ts keeps the file current; this checks what init's $schema relies on.
describe('the published config JSON Schema', () => {
  it('tells editors that comments are allowed, as the loader allows them', () => {
    expect(configJsonSchema()).toMatchObject({ allowComments: true, type: 'object', additionalProperties: false });
  });
});

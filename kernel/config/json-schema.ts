/**
 * Pincer's config as JSON Schema, generated from the zod schema the kernel validates with,
 * and published as `schema/pincer.config.schema.json` (editors read it through `$schema`; the
 * `gateway` tool's `config.schema.lookup` walks the same document). A test keeps the file in
 * sync. Regenerate with `node dist/kernel/config/json-schema.js --write` from the repo root.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';
import { resolveLazySchemaTree } from '../../protocol/index.js';
import { PincerConfigSchema } from './schema.js';

export const CONFIG_SCHEMA_FILE = path.join('schema', 'pincer.config.schema.json');

let cached: Readonly<Record<string, unknown>> | undefined;

/** The config's JSON Schema (draft 2020-12, as written: defaults are optional). Built once. */
export function configJsonSchema(): Readonly<Record<string, unknown>> {
  cached ??= Object.freeze({
    $comment: 'Generated from kernel/config/schema.ts by kernel/config/json-schema.ts; do not edit by hand.',
    title: 'Pincer configuration (pincer.config.json)',
    // Config files may carry comments (config/jsonc.ts); VS Code's JSON service reads this keyword.
    allowComments: true,
    ...(z.toJSONSchema(resolveLazySchemaTree(PincerConfigSchema), { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
  });
  return cached;
}

export function renderConfigJsonSchema(): string {
  return JSON.stringify(configJsonSchema(), null, 2) + '\n';
}

/** True when the file on disk is what the code generates. */
export function isConfigJsonSchemaCurrent(file = CONFIG_SCHEMA_FILE): boolean {
  try {
    return readFileSync(file, 'utf8') === renderConfigJsonSchema();
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[3] ?? CONFIG_SCHEMA_FILE;
  if (process.argv[2] === '--write') {
    writeFileSync(file, renderConfigJsonSchema());
    console.log(`wrote ${file}`);
  } else if (!isConfigJsonSchemaCurrent(file)) {
    console.error(`${file} is out of date; run: node dist/kernel/config/json-schema.js --write`);
    process.exitCode = 1;
  }
}

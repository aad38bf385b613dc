/**
 * Definition pinning (a defence against "rug pulls"): the first time the bridge sees a tool, it
 * records a hash of its description, input schema and output schema. When a server later serves
 * a different definition under the same name, the tool is marked changed with what changed,
 * and the bridge blocks it or asks for approval (config `pinning.onChange`) until an operator
 * accepts the new definition (`pincer mcp pins accept`, which drops the old pin).
 *
 * The store is `pins.json` in the bridge's data directory, owner-only, written atomically, and
 * read again when an operator changed it.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from './canonical-json.js';
import { readJsonFile, writeJsonFileAtomic, fileStamp } from '../state-file.js';

const MAX_PINNED_DESCRIPTION_CHARS = 4000;

export interface ToolPin {
  descriptionHash: string;
  inputSchemaHash: string;
  outputSchemaHash: string;
  /** The pinned description (cut), to show what changed. */
  description: string;
  /** Top-level property names of the pinned input schema. */
  inputProperties: string[];
  pinnedAt: string;
}

export type PinVerdict = { state: 'new' | 'same' } | { state: 'changed'; changes: string[]; pinnedAt: string };

interface PinFile {
  version: 1;
  servers: Record<string, Record<string, ToolPin>>;
}

const hash = (value: unknown): string => `sha256:${createHash('sha256').update(canonicalJson(value ?? null)).digest('hex').slice(0, 32)}`;

function propertyNames(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties).sort() : [];
}

export function pinOf(tool: Tool, now = new Date()): ToolPin {
  const description = tool.description ?? '';
  return {
    descriptionHash: hash(description),
    inputSchemaHash: hash(tool.inputSchema),
    outputSchemaHash: hash(tool.outputSchema),
    description: description.slice(0, MAX_PINNED_DESCRIPTION_CHARS),
    inputProperties: propertyNames(tool.inputSchema),
    pinnedAt: now.toISOString(),
  };
}

/** What differs between a pin and a tool's current definition, in words. */
export function describeChanges(pin: ToolPin, tool: Tool): string[] {
  const now = pinOf(tool);
  const changes: string[] = [];
  if (now.descriptionHash !== pin.descriptionHash) changes.push(`description (was ${quote(pin.description)}, now ${quote(now.description)})`);
  if (now.inputSchemaHash !== pin.inputSchemaHash) {
    const added = now.inputProperties.filter((p) => !pin.inputProperties.includes(p));
    const removed = pin.inputProperties.filter((p) => !now.inputProperties.includes(p));
    const moved = [...(added.length ? [`added ${added.join(', ')}`] : []), ...(removed.length ? [`removed ${removed.join(', ')}`] : [])];
    changes.push(`input schema${moved.length ? ` (${moved.join('; ')})` : ''}`);
  }
  if (now.outputSchemaHash !== pin.outputSchemaHash) changes.push('output schema');
  return changes;
}

function quote(text: string): string {
  const cut = text.length > 160 ? `${text.slice(0, 160)}…` : text;
  return JSON.stringify(cut);
}

export class PinStore {
  #file: PinFile = { version: 1, servers: {} };
  #stamp = '';

  constructor(private readonly path: string | undefined) {
    this.#reload();
  }

  /** Reads the file again if an operator changed it since. */
  #reload(): void {
    if (!this.path) return;
    const stamp = fileStamp(this.path);
    if (stamp === this.#stamp) return;
    this.#stamp = stamp;
    const data = readJsonFile(this.path) as Partial<PinFile> | undefined;
    this.#file = { version: 1, servers: data && typeof data.servers === 'object' && data.servers ? data.servers : {} };
  }

  /** Compares a tool with its pin, pinning it when it is new. */
  check(server: string, tool: Tool): PinVerdict {
    this.#reload();
    const pins = (this.#file.servers[server] ??= {});
    const pin = pins[tool.name];
    if (!pin) {
      pins[tool.name] = pinOf(tool);
      this.#save();
      return { state: 'new' };
    }
    const changes = describeChanges(pin, tool);
    return changes.length === 0 ? { state: 'same' } : { state: 'changed', changes, pinnedAt: pin.pinnedAt };
  }

  /** Forgets pins (one tool, or a whole server), so the next definition seen is pinned anew. */
  forget(server: string, tool?: string): number {
    this.#reload();
    const pins = this.#file.servers[server];
    if (!pins) return 0;
    const names = tool === undefined ? Object.keys(pins) : tool in pins ? [tool] : [];
    for (const name of names) delete pins[name];
    if (Object.keys(pins).length === 0) delete this.#file.servers[server];
    this.#save();
    return names.length;
  }

  list(): Record<string, Record<string, ToolPin>> {
    this.#reload();
    return this.#file.servers;
  }

  #save(): void {
    if (!this.path) return;
    writeJsonFileAtomic(this.path, this.#file);
    this.#stamp = fileStamp(this.path);
  }
}

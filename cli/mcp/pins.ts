/** `pincer mcp pins [accept SERVER [TOOL]]`: the definitions the bridge pinned, and accepting a changed one. */
import { join } from 'node:path';
import { PinStore } from '../../plugins/mcp-bridge/src/catalog/pins.js';
import { out, outJson, type CliContext } from '../context.js';
import { usageError } from '../errors.js';
import { renderTable } from '../format/table.js';
import type { BridgeData } from './bridge-data.js';

export function pinStore(data: BridgeData): PinStore {
  return new PinStore(join(data.dataDir, 'pins.json'));
}

export function listPins(ctx: CliContext, data: BridgeData, json: boolean): number {
  const pins = pinStore(data).list();
  const rows = Object.entries(pins).flatMap(([server, tools]) => Object.entries(tools).map(([tool, pin]) => ({ server, tool, pinnedAt: pin.pinnedAt, description: pin.description })));
  if (json) outJson(ctx, { dataDir: data.dataDir, pins: rows });
  else if (rows.length === 0) out(ctx, `No pinned MCP tool definitions yet (${data.dataDir}).`);
  else out(ctx, renderTable([{ header: 'SERVER' }, { header: 'TOOL' }, { header: 'PINNED AT' }, { header: 'DESCRIPTION' }], rows.map((r) => [r.server, r.tool, r.pinnedAt, r.description.replace(/\s+/g, ' ')]), { headerStyle: ctx.colors.bold }));
  return 0;
}

/** Drops the pin(s); the bridge pins the definition it sees next, and unblocks the tool. */
export function acceptPins(ctx: CliContext, data: BridgeData, server: string, tool: string | undefined, json: boolean): number {
  if (!(server in data.servers)) throw usageError(`no MCP server "${server}" in mcp.servers (configured: ${Object.keys(data.servers).join(', ')})`, 'mcp');
  const dropped = pinStore(data).forget(server, tool);
  const what = tool === undefined ? `every tool of server "${server}"` : `tool "${tool}" of server "${server}"`;
  if (json) outJson(ctx, { server, tool: tool ?? null, dropped });
  else out(ctx, dropped === 0 ? `Nothing was pinned for ${what}.` : `Accepted: the current definition of ${what} is pinned at its next use (${dropped} pin${dropped === 1 ? '' : 's'} dropped).`);
  return 0;
}

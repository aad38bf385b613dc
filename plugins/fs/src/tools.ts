import type { ToolDefinition } from '../../../sdk/plugin-api.js';
import { recoveryFirst } from './recovery-first.js';
import { applyPatchTool } from './tools/apply-patch.js';
import { editTool } from './tools/edit.js';
import { lsTool } from './tools/ls.js';
import { readTool } from './tools/read.js';
import { writeTool } from './tools/write.js';
import { withFsMetadata } from './tools/metadata.js';

/** The fs family, in catalog order (ls before read, as in the newest core catalog). */
export const FS_TOOLS: ToolDefinition<any>[] = [lsTool, readTool, writeTool, editTool, applyPatchTool].map(recoveryFirst).map(withFsMetadata);

export const FS_PLUGIN = { id: 'fs', version: '0.1.0', family: 'fs' } as const;

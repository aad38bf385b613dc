import { definePlugin } from '../../../sdk/plugin-api.js';
import { FS_PLUGIN, FS_TOOLS } from './tools.js';

/**
 * The fs tool family: every file operation goes through the session's workspace service, so
 * confined it needs nothing of the host but its own data directory (the undo journal).
 */
export const fsPlugin = definePlugin({ ...FS_PLUGIN, tools: FS_TOOLS, confinement: { network: 'none', spawn: false } });

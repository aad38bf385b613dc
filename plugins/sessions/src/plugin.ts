import { definePlugin } from '../../../sdk/plugin-api.js';
import { SESSIONS_TOOLS } from './tools.js';

/** The bundled sessions plugin (designated to serve the sessions core tools). */
export const sessionsPlugin = definePlugin({ id: 'sessions', version: '0.1.0', family: 'sessions', tools: SESSIONS_TOOLS });

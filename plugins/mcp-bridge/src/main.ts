import { serve } from '../../../sdk/plugin-api.js';
import { fileOAuthProvider } from './auth/file-provider.js';
import { createMcpBridgePlugin } from './plugin.js';

const { plugin, bridge } = createMcpBridgePlugin({ oauth: fileOAuthProvider });
bridge.attach(serve(plugin));

import { serve } from '../../../sdk/plugin-api.js';
import { createSandboxLocalPlugin } from './plugin.js';

serve(createSandboxLocalPlugin());

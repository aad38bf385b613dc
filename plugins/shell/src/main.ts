import { serve } from '../../../sdk/plugin-api.js';
import { createShellPlugin } from './plugin.js';

serve(createShellPlugin());

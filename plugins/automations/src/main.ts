import { serve } from '../../../sdk/plugin-api.js';
import { createAutomationsPlugin } from './plugin.js';

serve(createAutomationsPlugin());

import { serve } from '../../../sdk/plugin-api.js';
import { createSshPlugin } from './plugin.js';

serve(createSshPlugin());

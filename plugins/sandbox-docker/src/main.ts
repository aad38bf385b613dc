import { serve } from '../../../sdk/plugin-api.js';
import { createDockerPlugin } from './plugin.js';

serve(createDockerPlugin());

import { serve } from '../../../sdk/plugin-api.js';
import { createLocalNodePlugin } from './plugin.js';

serve(createLocalNodePlugin());

import { serve } from '../../../sdk/plugin-api.js';
import { createOutboxPlugin } from './plugin.js';

serve(createOutboxPlugin());

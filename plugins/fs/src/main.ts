import { serve } from '../../../sdk/plugin-api.js';
import { fsPlugin } from './plugin.js';

serve(fsPlugin);

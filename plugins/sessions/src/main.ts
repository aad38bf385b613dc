import { serve } from '../../../sdk/plugin-api.js';
import { sessionsPlugin } from './plugin.js';

serve(sessionsPlugin);

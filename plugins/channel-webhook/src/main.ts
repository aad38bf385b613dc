import { serve } from '../../../sdk/plugin-api.js';
import { createWebhookPlugin } from './plugin.js';

serve(createWebhookPlugin());

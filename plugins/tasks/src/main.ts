import { serve } from '../../../sdk/plugin-api.js';
import { createTasksPlugin } from './plugin.js';

serve(createTasksPlugin());

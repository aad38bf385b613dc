import { serve } from '../../../sdk/plugin-api.js';
import { createSkillsPlugin } from './plugin.js';

serve(createSkillsPlugin());

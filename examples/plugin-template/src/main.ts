// The process entry the kernel starts: `{ "id": "word-tools", "module": "<dir>/dist/src/main.js" }`.
import { serve } from 'pincer/sdk';
import { plugin } from './plugin.js';

serve(plugin);

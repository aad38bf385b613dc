/**
 * Pincer as a user gets it: `npm pack` of this checkout, installed globally into a temporary
 * prefix, run from folders that have nothing to do with the repository.
 */
import { execFile, execFileSync, type ExecFileOptions } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempDir } from '../helpers/temp-dir.js';

export const REPO = resolve(import.meta.dirname, '../..');

export interface Run { code: number; stdout: string; stderr: string }

/**
 * better-sqlite3's install fetches a prebuilt binary from GitHub and compiles SQLite from source
 * when it cannot (about two minutes of both cores per install here, where only the npm registry
 * is reachable). A user's machine gets the prebuilt binary; so do these installs, from a folder
 * holding the binary this checkout's `npm ci` built, under the name prebuild-install looks for.
 */
const prebuilds = (() => {
  let dir: string | undefined;
  return (): string => {
    if (dir) return dir;
    dir = tempDir('pincer-prebuilds-');
    const pkg = join(REPO, 'node_modules/better-sqlite3');
    const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
    const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    execFileSync('tar', ['-czf', join(dir, name), '-C', pkg, 'build/Release/better_sqlite3.node']);
    return dir;
  };
})();

/**
 * The machine's global npmrc, as npm finds it for this checkout. An install into another prefix
 * would look for `<prefix>/etc/npmrc` instead and lose what the machine set there (a CA file for a
 * TLS-inspecting proxy, a registry mirror): every registry fetch then failed here.
 */
const globalNpmrc = (() => {
  let file: string | undefined;
  return (): string => (file ??= execFileSync('npm', ['config', 'get', 'globalconfig'], { cwd: REPO, encoding: 'utf8' }).trim());
})();

/** What a user's shell would hand npm to reach the registry: proxies and extra CA certificates. */
const NETWORK_ENV = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];

/** Quiet npm, no PINCER_* leaking in from the test's own environment. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const network = Object.fromEntries(NETWORK_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    ...network,
    npm_config_globalconfig: globalNpmrc(),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_better_sqlite3_local_prebuilds: prebuilds(),
  };
  return { ...env, ...extra };
}

export function run(file: string, args: string[], options: ExecFileOptions & { input?: string } = {}): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(file, args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024, env: cleanEnv(), ...options }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

export async function mustRun(file: string, args: string[], options: ExecFileOptions = {}): Promise<string> {
  const result = await run(file, args, options);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

export const temp = (prefix: string) => tempDir(`pincer-${prefix}-`);

export interface PackedInstall {
  tarball: string;
  prefix: string;
  bin: string;
  /** The installed package's folder. */
  root: string;
}

/** Packs the built checkout and installs the tarball into a fresh global prefix. */
export async function packAndInstall(): Promise<PackedInstall> {
  const packDir = temp('pack');
  // dist/ is built by the suite's setup; `prepare` would only build it again.
  await mustRun('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: REPO });
  const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
  const prefix = temp('prefix');
  await mustRun('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', tarball], { cwd: packDir });
  return { tarball, prefix, bin: join(prefix, 'bin', 'pincer'), root: join(prefix, 'lib', 'node_modules', 'pincer') };
}

/** An MCP client on `pincer serve` over stdio, as a client config would start it. */
export async function connectServe(command: string, args: string[], cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({ command, args, cwd, env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'packed-install-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

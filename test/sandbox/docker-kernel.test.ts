import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernel, type PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { pruneSandboxes } from '../../plugins/sandbox-docker/src/lifecycle.js';
import { JsonFileSandboxRegistry } from '../../sdk/sandbox/registry.js';
import { removeDeployment, testDeployment } from './deployment.js';
import { HAS_DOCKER, TEST_IMAGE } from './services.js';

/**
 * The docker backend as a real plugin process behind a real kernel: what a tool caller sees of
 * a refused sandbox, the merged settings a session gets, and last use recorded per call.
 */
const DEPLOYMENT = testDeployment('k');
const docker = new Docker();
const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'pincer-docker-kernel-'));
const registryPath = path.join(dir, 'state', 'containers.json');

const ours = () => docker.listContainers({ all: true, filters: { label: [`pincer.deployment=${DEPLOYMENT}`] } });

function workspace(name: string): string {
  const ws = mkdtempSync(path.join(dir, `${name}-`));
  writeFileSync(path.join(ws, 'seed.txt'), 'seed');
  return ws;
}

function config(agents: PincerConfig['agents']): PincerConfig {
  return {
    plugins: [
      ...bundledPluginConfigs(),
      { id: 'sandbox-docker', module: path.join(root, 'dist/plugins/sandbox-docker/src/main.js'), settings: { deploymentId: DEPLOYMENT, registryPath, docker: { image: TEST_IMAGE } } },
    ],
    agents,
  };
}

async function withKernel<T>(cfg: PincerConfig, run: (k: ReturnType<typeof createKernel>) => Promise<T>): Promise<T> {
  const kernel = createKernel(cfg, { logger: () => undefined });
  await kernel.start();
  try {
    return await run(kernel);
  } finally {
    await kernel.stop();
  }
}

const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text ?? '').join('');

describe.skipIf(!HAS_DOCKER)('the docker backend behind a real kernel', () => {
  afterAll(() => removeDeployment(DEPLOYMENT));

  it('hands a refused sandbox to the caller as SECURITY_VIOLATION, not as a plugin error', async () => {
    const cfg = config({ list: [{ id: 'main', workspace: workspace('refused'), sandbox: { mode: 'all', workspaceAccess: 'rw', docker: { binds: ['/etc:/host-etc:ro'] } } }] });
    await withKernel(cfg, async (kernel) => {
      const result = await kernel.assembleTools({ agentId: 'main' }).execute('read', { path: 'seed.txt' });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('SECURITY_VIOLATION');
      expect(text(result)).toContain('bind mount "/etc:/host-etc:ro"');
      expect(text(result)).not.toMatch(/plugin answered with an error|IO_ERROR/);
      // A model is told it was refused, never how to lift the fence.
      expect(text(result)).not.toMatch(/dangerouslyAllow|Remove the bind/);
    });
    expect((await ours()).filter((c) => c.Labels['pincer.agentId'] === 'main')).toEqual([]);
  }, 120_000);

  it('gives an agent that sets only image the defaults\' env and pids limit, and keeps them for scope shared', async () => {
    const defaults = { sandbox: { mode: 'all' as const, workspaceAccess: 'rw' as const, docker: { env: { FROM_DEFAULTS: 'yes' }, pidsLimit: 77 } } };
    for (const [agent, scope] of [['merged', 'agent'], ['sharing', 'shared']] as const) {
      const cfg = config({ defaults, list: [{ id: agent, workspace: workspace(agent), sandbox: { scope, docker: { image: TEST_IMAGE, env: { OWN: 'x' } } } }] });
      await withKernel(cfg, async (kernel) => {
        const result = await kernel.assembleTools({ agentId: agent }).execute('exec', { command: 'echo "$FROM_DEFAULTS/$OWN"' });
        expect(text(result), scope).toContain(scope === 'shared' ? 'yes/' : 'yes/x');
      });
      const [container] = (await ours()).filter((c) => c.Labels['pincer.agentId'] === agent);
      expect((await docker.getContainer(container!.Id).inspect()).HostConfig.PidsLimit, scope).toBe(77);
    }
  }, 180_000);

  it('brings a session back after its container died, instead of failing for the rest of the session', async () => {
    const cfg = config({ list: [{ id: 'phoenix', workspace: workspace('phoenix'), sandbox: { mode: 'all', workspaceAccess: 'rw' } }] });
    await withKernel(cfg, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'phoenix' });
      expect(text(await tools.execute('exec', { command: 'echo first' }))).toContain('first');
      const [container] = (await ours()).filter((c) => c.Labels['pincer.agentId'] === 'phoenix');
      await docker.getContainer(container!.Id).kill();
      const seen: string[] = [];
      for (const deadline = Date.now() + 60_000; !seen.at(-1)?.includes('back') && Date.now() < deadline;) {
        seen.push(text(await tools.execute('exec', { command: 'echo back' })));
      }
      expect(seen.at(-1), seen.join('\n')).toContain('back');
      expect(seen.length).toBeLessThanOrEqual(2); // at most the one call that met the dead container fails
    });
  }, 120_000);

  it('streams a running command\'s output as progress of the call, on the local backend and in docker, labelled as the result', async () => {
    const cfg = config({ list: [{ id: 'host', workspace: workspace('host') }, { id: 'boxed', workspace: workspace('boxed'), sandbox: { mode: 'all', workspaceAccess: 'rw' } }] });
    // The same on both, byte for byte: docker's exec wrapper holds back only stderr that could be its
    // stray-process marker, so `warn` is reported while the command sleeps and keeps its place.
    const firstReport = { host: 'first\n[stderr]\nwarn\n', boxed: 'first\n[stderr]\nwarn\n' };
    await withKernel(cfg, async (kernel) => {
      for (const [agentId, expected] of Object.entries(firstReport)) {
        const seen: { message?: string; output?: unknown; at: number }[] = [];
        const onProgress = (value: unknown) => seen.push({ ...(value as { message?: string; output?: unknown }), at: Date.now() });
        const result = await kernel.assembleTools({ agentId }).execute('exec', { command: 'echo first; sleep 0.1; echo warn >&2; sleep 1; echo second' }, { onProgress });
        const ended = Date.now();
        const reports = seen.filter((r) => r.output !== undefined);
        expect(reports[0]?.message, agentId).toBe(expected);
        expect(reports[0]!.output, agentId).toContainEqual({ stream: 'stdout', text: 'first\n' });
        expect(reports[0]!.at, agentId).toBeLessThan(ended - 500); // while it slept, long before its result
        // In order, the messages are the start of the result's output, labels included.
        expect(text(result).startsWith(reports.map((r) => r.message).join('')), agentId).toBe(true);
        expect(text(result), agentId).toMatch(/^first\n\[stderr\]\nwarn\n\[stdout\]\nsecond\n\n?\[exit code 0; /);
      }
    });
  }, 120_000);

  it('records last use on every call, so a long session never looks idle to prune', async () => {
    const cfg = config({ list: [{ id: 'busy', workspace: workspace('busy'), sandbox: { mode: 'all', workspaceAccess: 'rw' } }] });
    await withKernel(cfg, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'busy' });
      await tools.execute('exec', { command: 'true' });
      const registry = new JsonFileSandboxRegistry(registryPath);
      const entry = registry.list().find((e) => e.scopeKey === 'agent:busy')!;
      // Pretend the session started two days ago and has been working since: only calls show it.
      const twoDaysAgo = Date.now() - 2 * 86_400_000;
      registry.set({ ...entry, createdAtMs: twoDaysAgo, lastUsedAtMs: twoDaysAgo });
      // Calls keep coming; the backend records each (at most one write a second), so the record catches up.
      let touched = twoDaysAgo;
      for (const deadline = Date.now() + 30_000; touched === twoDaysAgo && Date.now() < deadline;) {
        expect((await tools.execute('read', { path: 'seed.txt' })).isError).toBeFalsy();
        touched = new JsonFileSandboxRegistry(registryPath).get(entry.name)!.lastUsedAtMs;
      }
      expect(touched).toBeGreaterThan(Date.now() - 60_000);
      const pruned = await pruneSandboxes({ docker, deploymentId: DEPLOYMENT, registry: new JsonFileSandboxRegistry(registryPath), expectedNames: () => [entry.name] }, { idleHours: 24, maxAgeDays: 0 });
      expect(pruned).toEqual([]);
    });
  }, 120_000);
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliLogger } from '../../cli/logger.js';
import { createMcpServer } from '../../cli/serve/mcp-server.js';
import { ToolBridge } from '../../cli/serve/tool-bridge.js';
import { createKernel, defaultConfig, type Kernel } from '../../kernel/index.js';
import { TempDirs, skillMd, waitFor, writeTree } from './helpers.js';

const quiet: CliLogger = Object.assign(() => {}, { error() {}, warn() {}, info() {}, debug() {} });
const temp = new TempDirs();

describe('skills over MCP (pincer serve)', () => {
  let kernel: Kernel;
  let client: Client;
  let ws: string;
  let changes = 0;

  beforeAll(async () => {
    ws = writeTree(temp.make(), {
      'skills/review/SKILL.md': skillMd('Review a pull request'),
      'skills/quiet/SKILL.md': skillMd('Only for the model', 'user-invocable: false\n'),
    });
    const home = temp.make();
    const config = defaultConfig({ cwd: ws });
    config.plugins = config.plugins!.map((p) => (p.id === 'skills' ? { ...p, settings: { managedDir: join(home, 'm'), personalDir: join(home, 'p') } } : p));
    kernel = createKernel(config, { cwd: ws, logger: () => undefined });
    await kernel.start();
    await kernel.skills.refresh();
    const server = createMcpServer(new ToolBridge(kernel, { trigger: 'user' }, quiet), { version: 'test', logger: quiet });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1' });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void (changes += 1));
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client.close();
    await kernel.stop();
    temp.cleanup();
  });

  it('hands the model the skill index in the server instructions', () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('<available_skills>');
    expect(instructions).toContain('<location>/workspace/skills/review/SKILL.md</location>');
  });

  it('offers each user-invocable skill as a prompt that points the model at its SKILL.md', async () => {
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('review');
    expect(prompts.map((p) => p.name)).not.toContain('quiet');
    const prompt = await client.getPrompt({ name: 'review', arguments: { request: 'PR #12' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Use the "review" skill (Review a pull request). Its instructions are in /workspace/skills/review/SKILL.md: read that file with the read tool and follow it.\n\nRequest: PR #12' } },
    ]);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/no skill prompt "nope"/);
  });

  it('tells the client when the prompt list changes', async () => {
    writeFileSync(join(ws, 'skills/review/SKILL.md'), skillMd('Review a pull request carefully'));
    await waitFor(() => changes > 0, 'notifications/prompts/list_changed');
    await waitFor(async () => (await client.listPrompts()).prompts.find((p) => p.name === 'review')?.description === 'Review a pull request carefully', 'the new description');
  });
});

/** SPEC §7 naming, materialization order and the server deny matcher, as pure functions. */
import { describe, expect, it } from 'vitest';
import { buildSafeMcpServerNames, buildSafeMcpToolName, createMcpServerToolDenyMatcher, sanitizeMcpNameFragment } from '../../sdk/policy/index.js';
import { materializeCatalogs, type MaterializeInput } from '../../plugins/mcp-bridge/src/catalog/materialize.js';
import { BridgeSettings } from '../../plugins/mcp-bridge/src/config.js';
import { deniedMcpServers, withMcpBridge } from '../../kernel/mcp/bridge-entry.js';

const settings = (extra: Record<string, unknown> = {}) => BridgeSettings.parse({ servers: { s: { command: 'x', ...extra } } }).servers.s;

describe('MCP safe names (SPEC §7)', () => {
  it('replaces characters outside [A-Za-z0-9_-], puts the fallback before a non-letter start, and cuts to the budget', () => {
    expect(sanitizeMcpNameFragment(' my server.v2 ', 'mcp')).toBe('my-server-v2');
    expect(sanitizeMcpNameFragment('9lives', 'mcp')).toBe('mcp-9lives');
    expect(sanitizeMcpNameFragment('', 'tool')).toBe('tool');
    expect(sanitizeMcpNameFragment('日本😀', 'tool')).toBe('tool----');
    expect(sanitizeMcpNameFragment('a'.repeat(40), 'mcp', 30)).toHaveLength(30);
  });

  it('keeps server names to 30 characters and resolves case-insensitive collisions with -2, -3 inside the budget', () => {
    const long = 'x'.repeat(35);
    const safe = buildSafeMcpServerNames(['Docs', 'docs', 'DOCS', long, `${long}y`]);
    expect([...safe.values()]).toEqual(['Docs', 'docs-2', 'DOCS-3', 'x'.repeat(30), `${'x'.repeat(28)}-2`]);
  });

  it('builds <server>__<tool> within 64 characters and suffixes case-insensitive collisions', () => {
    const reserved = new Set<string>();
    const first = buildSafeMcpToolName('srv', 'Search', reserved);
    reserved.add(first.toLowerCase());
    expect(first).toBe('srv__Search');
    expect(buildSafeMcpToolName('srv', 'search', reserved)).toBe('srv__search-2');
    const long = buildSafeMcpToolName('s'.repeat(30), 't'.repeat(80), new Set());
    expect(long).toHaveLength(64);
    const clash = new Set([long.toLowerCase()]);
    const second = buildSafeMcpToolName('s'.repeat(30), 't'.repeat(80), clash);
    expect(second).toHaveLength(64);
    expect(second.endsWith('-2')).toBe(true);
  });
});

describe('materializing catalogs', () => {
  const input = (serverName: string, safeServerName: string, tools: string[], extra: Partial<MaterializeInput['catalog']> = {}, s = settings()): MaterializeInput => ({
    serverName,
    safeServerName,
    settings: s,
    catalog: { tools: tools.map((name) => ({ name, inputSchema: { type: 'object' } })), resources: false, prompts: false, ...extra },
  });

  it('orders the result by name whatever order servers answered in, and warns for each renamed tool', () => {
    const a = materializeCatalogs([input('b', 'b', ['z', 'a']), input('a.x', 'a-x', ['get file'])]);
    const b = materializeCatalogs([input('a.x', 'a-x', ['get file']), input('b', 'b', ['a', 'z'])]);
    expect(a.tools.map((t) => t.name)).toEqual(['a-x__get-file', 'b__a', 'b__z']);
    expect(b.tools.map((t) => t.name)).toEqual(a.tools.map((t) => t.name));
    expect(a.warnings).toEqual(['mcp: tool "get file" of server "a.x" is served as "a-x__get-file" so that its name is safe for every model provider.']);
  });

  it('adds resource and prompt utility tools only for servers that declared them, and honours the tool filter', () => {
    const { tools } = materializeCatalogs([
      input('r', 'r', ['t'], { resources: true }),
      input('p', 'p', ['t'], { prompts: true }, settings({ excludeTools: ['prompts_get'] })),
      input('n', 'n', ['t', 'u'], {}, settings({ includeTools: ['u'] })),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['n__u', 'p__prompts_list', 'p__t', 'r__resources_list', 'r__resources_read', 'r__t']);
    expect(tools.find((t) => t.name === 'r__resources_read')!.inputSchema).toMatchObject({ required: ['uri'] });
  });

  it('runs tools in parallel only when the server is declared to support it', () => {
    const [sequential] = materializeCatalogs([input('s', 's', ['t'])]).tools;
    const [parallel] = materializeCatalogs([input('s', 's', ['t'], {}, settings({ supportsParallelToolCalls: true }))]).tools;
    expect([sequential.executionMode, parallel.executionMode]).toEqual(['sequential', 'parallel']);
  });

  it('skips blank names and app-only tools', () => {
    const catalog = { tools: [{ name: ' ', inputSchema: { type: 'object' } }, { name: 'app', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } }, { name: 'ok', inputSchema: { type: 'object' } }], resources: false, prompts: false };
    const { tools, warnings } = materializeCatalogs([{ serverName: 's', safeServerName: 's', settings: settings(), catalog: catalog as never }]);
    expect(tools.map((t) => t.name)).toEqual(['s__ok']);
    expect(warnings.join('\n')).toContain('apps only');
  });
});

describe('denying a whole MCP server before it starts', () => {
  it('matches bundle-mcp, group:plugins and * patterns on the server prefix, not single-tool entries', () => {
    expect(createMcpServerToolDenyMatcher(['bundle-mcp'])('docs')).toBe(true);
    expect(createMcpServerToolDenyMatcher(['group:plugins'])('docs')).toBe(true);
    expect(createMcpServerToolDenyMatcher(['Docs__*'])('docs')).toBe(true);
    expect(createMcpServerToolDenyMatcher(['do*'])('docs')).toBe(true);
    expect(createMcpServerToolDenyMatcher(['docs__search'])('docs')).toBe(false);
    expect(createMcpServerToolDenyMatcher(['other__*', 'exec'])('docs')).toBe(false);
    expect(createMcpServerToolDenyMatcher(undefined)('docs')).toBe(false);
  });

  const servers = { docs: { command: 'a' }, web: { command: 'b' } };

  it('leaves out a server only when every agent that enables the bridge denies it', () => {
    const agents = (list: object[]) => ({ mcp: { servers }, agents: { list } }) as never;
    expect(deniedMcpServers({ mcp: { servers }, tools: { deny: ['docs__*'] } } as never)).toEqual(['docs']);
    expect(deniedMcpServers(agents([{ id: 'a', tools: { deny: ['docs__*'] } }, { id: 'b' }]))).toEqual([]);
    expect(deniedMcpServers(agents([{ id: 'a', tools: { deny: ['docs__*'] } }, { id: 'b', tools: { deny: ['bundle-mcp'] } }]))).toEqual(['docs']);
    // An agent that does not enable the bridge does not keep a server alive.
    expect(deniedMcpServers(agents([{ id: 'a', tools: { deny: ['docs__*'] } }, { id: 'b', plugins: ['fs'] }]))).toEqual(['docs']);
  });

  it('hands the bridge only allowed servers, with the named variables from the environment and deadlines that fit', () => {
    const config = { mcp: { servers: { ...servers, remote: { url: 'https://example.test/mcp', bearerTokenEnv: 'REMOTE_TOKEN', timeoutMs: 120_000 } } }, tools: { deny: ['web__*'] } };
    const [entry] = withMcpBridge(config as never, { env: { REMOTE_TOKEN: 't0k3n', OTHER: 'no' } });
    expect(entry.id).toBe('mcp-bridge');
    expect(Object.keys((entry.settings as any).servers)).toEqual(['docs', 'remote']);
    expect((entry.settings as any).deniedServers).toEqual(['web']);
    expect(entry.env).toEqual({ REMOTE_TOKEN: 't0k3n' });
    expect(entry.timeouts).toMatchObject({ callMs: 125_000 });
  });
});

/**
 * Tool search: when a run's tools are too many, deferrable ones are found through `tool_search`
 * (ranked keywords or a regex), become callable once found, and policy decides first.
 */
import { describe, expect, it } from 'vitest';
import type { KernelTool } from '../../kernel/gate/index.js';
import { planToolSearch } from '../../kernel/tool-search/plan.js';
import { compilePattern, ToolIndex } from '../../kernel/tool-search/rank.js';

const tool = (name: string, description: string, deferrable = true): KernelTool => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
  deferrable,
  execute: async () => ({ content: [{ type: 'text', text: `ran ${name}` }] }),
});

const catalog = [
  tool('github__create_issue', 'Create a new issue in a GitHub repository.'),
  tool('github__list_issues', 'List issues of a repository, filtered by state.'),
  tool('github__create_pull_request', 'Open a pull request from a branch.'),
  tool('slack__post_message', 'Post a message to a Slack channel.'),
  tool('fs__read_file', 'Read a file; the issue tracker is not involved.'),
];

describe('ranking', () => {
  it('ranks name matches above description matches, and more matched keywords higher', () => {
    const index = new ToolIndex(catalog);
    expect(index.keywords('create issue', 3).map((t) => t.name)).toEqual(['github__create_issue', 'github__create_pull_request', 'github__list_issues']);
    expect(index.keywords('slack', 5).map((t) => t.name)).toEqual(['slack__post_message']);
    expect(index.keywords('nothing-like-this', 5)).toEqual([]);
  });

  it('matches a regular expression against names and descriptions, and refuses patterns that backtrack forever', () => {
    const index = new ToolIndex(catalog);
    expect(index.pattern(compilePattern('^github__list') as RegExp, 5).map((t) => t.name)).toEqual(['github__list_issues']);
    expect(index.pattern(compilePattern('pull REQUEST') as RegExp, 5).map((t) => t.name)).toEqual(['github__create_pull_request']);
    expect(compilePattern('(a+)+$')).toMatch(/repeated group/);
    expect(compilePattern('(\\w+\\s?)*x')).toMatch(/repeated group/);
    expect(compilePattern('(a)\\1')).toMatch(/back-references/);
    expect(compilePattern('x'.repeat(201))).toMatch(/longer than 200/);
    expect(compilePattern('[')).toMatch(/not a valid regular expression/);
  });
});

describe('the plan', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`srv__t${i}`, `tool number ${i}`));

  it('lists everything while the run is small, and defers once it passes the count or the size budget', () => {
    expect(planToolSearch(many(10), undefined, new Set())).toBeUndefined();
    const byCount = planToolSearch([tool('read', 'core', false), ...many(50)], undefined, new Set())!;
    expect(byCount.listed().map((t) => t.name)).toEqual(['read', 'tool_search']);
    const bySize = planToolSearch([tool('big__x', 'y'.repeat(5_000)), tool('read', 'core', false)], { maxDefinitionChars: 4_000 }, new Set())!;
    expect(bySize.listed().map((t) => t.name)).toEqual(['read', 'tool_search']);
    expect(planToolSearch(many(50), { enabled: false }, new Set())).toBeUndefined();
    expect(planToolSearch(many(2), { enabled: true }, new Set())!.listed().map((t) => t.name)).toEqual(['tool_search']);
    // Nothing deferrable: nothing to search.
    expect(planToolSearch(Array.from({ length: 60 }, (_, i) => tool(`core${i}`, 'x', false)), undefined, new Set())).toBeUndefined();
  });

  it('refuses a deferred tool until a search found it, then lists it and lets it run', async () => {
    const discovered = new Set<string>();
    const plan = planToolSearch(catalog, { enabled: true }, discovered)!;
    expect(plan.notLoaded('slack__post_message')).toMatch(/call tool_search to find it/);
    const search = plan.all.find((t) => t.name === 'tool_search')!;
    const result = await search.execute({ query: 'slack message' }, { toolCallId: 't' });
    expect(JSON.parse((result.content[0] as { text: string }).text).matches[0]).toMatchObject({ name: 'slack__post_message', inputSchema: { type: 'object' } });
    expect(plan.notLoaded('slack__post_message')).toBeUndefined();
    expect(plan.listed().map((t) => t.name)).toEqual(['tool_search', 'slack__post_message']);
    expect((await search.execute({ query: 'a', pattern: 'b' }, { toolCallId: 't' })).isError).toBe(true);
  });
});


import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filterInstallSpec, parseFrontmatter, readSkillFields } from '../../sdk/skills/index.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const fields = (text: string, dir = 'my-skill') => {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return readSkillFields(parsed.data, dir);
};

describe('SKILL.md frontmatter', () => {
  it('never evaluates a ---js block (gray-matter would eval it): it is refused as unsupported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pincer-fm-'));
    dirs.push(dir);
    const marker = join(dir, 'pwned');
    const text = `---js\n{ description: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 'evil') }\n---\nbody`;
    const parsed = parseFrontmatter(text);
    expect(parsed).toMatchObject({ ok: false, code: 'unsupported-language' });
    expect(existsSync(marker)).toBe(false);
  });

  it('reports malformed YAML, an unclosed block and a non-mapping with a code and where', () => {
    expect(parseFrontmatter('---\ndescription: [unclosed\n---\n')).toMatchObject({ ok: false, code: 'yaml-syntax' });
    expect(parseFrontmatter('---\ndescription: a\ndescription: b\n---\n')).toMatchObject({ ok: false, code: 'yaml-syntax' });
    expect(parseFrontmatter('---\ndescription: never closed\n')).toMatchObject({ ok: false, code: 'unclosed' });
    expect(parseFrontmatter('---\n- a\n- b\n---\n')).toMatchObject({ ok: false, code: 'not-a-mapping' });
  });

  it('reads a file with a BOM and CRLF line ends', () => {
    expect(parseFrontmatter('\ufeff---\r\ndescription: x\r\n---\r\nbody')).toMatchObject({ ok: true, data: { description: 'x' }, body: 'body' });
  });

  it('requires a description and takes the name from the frontmatter or the directory', () => {
    expect(fields('---\nname: x\n---\n')).toEqual({ ok: false, reason: 'missing-description', detail: 'description is required' });
    expect(fields('---\ndescription: "  "\n---\n')).toMatchObject({ ok: false, reason: 'missing-description' });
    expect(fields('---\ndescription: Does a thing\n---\n')).toMatchObject({ ok: true, fields: { name: 'my-skill', description: 'Does a thing' } });
    expect(fields('---\nname: " other "\ndescription: d\n---\n')).toMatchObject({ ok: true, fields: { name: 'other' } });
  });

  it('refuses names with control characters or separators, and warns on the Agent Skills naming rules', () => {
    expect(fields('---\nname: "bad\\u0007bell"\ndescription: d\n---\n')).toMatchObject({ ok: false, reason: 'invalid-name' });
    expect(fields('---\nname: "a/b"\ndescription: d\n---\n')).toMatchObject({ ok: false, reason: 'invalid-name' });
    const loose = fields(`---\nname: "-Bad--Name-"\ndescription: ${'x'.repeat(1100)}\n---\n`);
    expect(loose.ok && loose.fields.warnings).toEqual([
      'name should use only lowercase letters, digits and hyphens',
      'name should not start or end with a hyphen',
      'name should not contain "--"',
      'description is longer than 1024 characters',
    ]);
  });

  it('reads invocation flags (boolean-ish strings too) and a command bound to a tool', () => {
    const r = fields('---\ndescription: d\nuser-invocable: "no"\ndisable-model-invocation: yes\ncommand-dispatch: tool\ncommand-tool: exec\ncommand-arg-mode: raw\n---\n');
    expect(r).toMatchObject({ ok: true, fields: { userInvocable: false, disableModelInvocation: true, command: { dispatch: 'tool', tool: 'exec', argMode: 'raw' } } });
    const bad = fields('---\ndescription: d\nuser-invocable: maybe\ncommand-dispatch: tool\n---\n');
    expect(bad).toMatchObject({ ok: true, fields: { userInvocable: true, command: undefined } });
    expect(bad.ok && bad.fields.warnings).toEqual(['user-invocable is not a boolean; using true', 'command-dispatch: tool needs a valid command-tool; ignored']);
  });

  it('reads the manifest under pincer or openclaw, as a mapping or a JSON string', () => {
    const mapping = fields('---\ndescription: d\nmetadata:\n  pincer:\n    always: "true"\n    skillKey: k\n    os: "linux, darwin"\n    requires: { bins: [git], anyBins: "rg,grep", env: [GITHUB_TOKEN], config: [browser.enabled] }\n---\n');
    expect(mapping).toMatchObject({ ok: true, fields: { manifest: { always: true, skillKey: 'k', os: ['linux', 'darwin'], requires: { bins: ['git'], anyBins: ['rg', 'grep'], env: ['GITHUB_TOKEN'], config: ['browser.enabled'] } } } });
    const json = fields(`---\ndescription: d\nmetadata: '{"openclaw": {"emoji": "x", "requires": {"bins": ["jq", "bad/path"]}}}'\n---\n`);
    expect(json).toMatchObject({ ok: true, fields: { manifest: { emoji: 'x', requires: { bins: ['jq'] } } } });
    expect(json.ok && json.fields.warnings).toEqual(['metadata.requires.bins: 1 entry dropped (not a valid name)']);
  });
});

describe('install specs, validated as a filter', () => {
  it('keeps a valid spec of each kind, normalized', () => {
    expect(filterInstallSpec({ type: 'BREW', formula: 'jq' })).toEqual({ spec: { kind: 'brew', formula: 'jq' } });
    expect(filterInstallSpec({ kind: 'node', package: '@scope/tool@^1.2.0', bins: 'tool' })).toEqual({ spec: { kind: 'node', package: '@scope/tool@^1.2.0', bins: ['tool'] } });
    expect(filterInstallSpec({ kind: 'go', module: 'github.com/x/y/cmd/z@v1.2.3' })).toMatchObject({ spec: { module: 'github.com/x/y/cmd/z@v1.2.3' } });
    expect(filterInstallSpec({ kind: 'uv', package: 'ruff==0.5.0' })).toMatchObject({ spec: { package: 'ruff==0.5.0' } });
    const sha = 'A'.repeat(64);
    expect(filterInstallSpec({ kind: 'download', url: 'https://example.com/a b'.replace(' ', ''), sha256: sha, stripComponents: 1 })).toEqual({
      spec: { kind: 'download', url: 'https://example.com/ab', sha256: 'a'.repeat(64), stripComponents: 1 },
    });
  });

  it('drops the whole spec when a value could pass for a flag or a path trick', () => {
    expect(filterInstallSpec({ kind: 'node', package: '--registry=https://evil' })).toMatchObject({ dropped: expect.stringContaining('starts with "-"') });
    expect(filterInstallSpec({ kind: 'brew', formula: '-s evil' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'brew', formula: 'a/../../b' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'go', module: '-modfile=x' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'uv', package: '--index-url=x' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'node', package: 'git+https://x/y.git' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'download', url: 'https://x/y', targetDir: '--prefix=/' })).toHaveProperty('dropped');
  });

  it('drops a spec with a malformed sha256, a non-http url, an unknown kind or no target', () => {
    expect(filterInstallSpec({ kind: 'download', url: 'https://x/y', sha256: 'abc' })).toEqual({ dropped: 'sha256 is not 64 hexadecimal digits' });
    expect(filterInstallSpec({ kind: 'download', url: 'file:///etc/passwd' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'download', url: 'https://x/ y' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'apt', package: 'x' })).toHaveProperty('dropped');
    expect(filterInstallSpec({ kind: 'node' })).toEqual({ dropped: 'a node spec needs package' });
  });

  it('reports dropped specs as manifest warnings, keeping the valid ones', () => {
    const r = fields('---\ndescription: d\nmetadata:\n  pincer:\n    install:\n      - { kind: brew, formula: jq }\n      - { kind: node, package: "-g evil" }\n---\n');
    expect(r).toMatchObject({ ok: true, fields: { manifest: { install: [{ kind: 'brew', formula: 'jq' }] } } });
    expect(r.ok && r.fields.warnings).toEqual(['metadata.install[1] dropped: package starts with "-"']);
  });
});

/**
 * Splits a SKILL.md into its YAML frontmatter and body with gray-matter, YAML only.
 * gray-matter picks its parser from the text after the opening `---` (`---js` evaluates
 * JavaScript), so a skill file could run code in whoever parses it: we accept only a bare
 * `---` line and register refusing engines for every other language besides.
 */
import matter from 'gray-matter';

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; code: 'unsupported-language' | 'unclosed' | 'yaml-syntax' | 'not-a-mapping'; message: string };

const refuse = (): never => {
  throw new Error('only YAML frontmatter is accepted');
};
const OPTIONS = { language: 'yaml', engines: { javascript: refuse, js: refuse, coffee: refuse, json: refuse, toml: refuse } };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseFrontmatter(text: string): FrontmatterResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!source.startsWith('---')) return { ok: true, data: {}, body: source };
  if (!OPENING.test(source)) {
    const language = source.slice(3, source.indexOf('\n') === -1 ? undefined : source.indexOf('\n')).trim();
    return { ok: false, code: 'unsupported-language', message: `frontmatter must open with a bare "---" line (YAML only), found "---${language.slice(0, 40)}"` };
  }
  if (!CLOSING.test(source.slice(source.indexOf('\n')))) return { ok: false, code: 'unclosed', message: 'frontmatter has no closing "---" line' };
  let parsed: { data: unknown; content: string };
  try {
    // Options are always passed: gray-matter caches results keyed by content only when none are given.
    parsed = matter(source, OPTIONS as never) as { data: unknown; content: string };
  } catch (error) {
    const e = error as { reason?: string; message?: string; mark?: { line?: number } };
    const where = typeof e.mark?.line === 'number' ? ` (line ${e.mark.line + 2})` : '';
    return { ok: false, code: 'yaml-syntax', message: `${e.reason ?? e.message ?? String(error)}${where}` };
  }
  const data = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, code: 'not-a-mapping', message: 'frontmatter is not a YAML mapping' };
  return { ok: true, data: data as Record<string, unknown>, body: parsed.content };
}

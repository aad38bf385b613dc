/**
 * The skill index for the model's prompt (SPEC §6.3): names, descriptions, locations and
 * content versions inside an XML-escaped block, with the instruction to re-read a skill whose
 * version changed. Under the budget (150 skills, 18,000 characters) it falls back to a compact
 * form: the largest prefix (by name) that fits without descriptions, then the longest
 * description length that still fits, with a warning line saying what was cut.
 */
export interface PromptSkill {
  name: string;
  description: string;
  location: string;
  version?: string;
}

export interface PromptLimits {
  maxSkills: number;
  maxChars: number;
}

export const DEFAULT_PROMPT_LIMITS: PromptLimits = Object.freeze({ maxSkills: 150, maxChars: 18_000 });
/** Changes whenever the rendering changes: a cached snapshot with another value is rebuilt. */
export const PROMPT_FORMAT_VERSION = 1;
export const COMPACT_DESCRIPTION_MAX_CHARS = 220;
const COMPACT_DESCRIPTION_MIN_CHARS = 4;

export interface RenderedIndex {
  text: string;
  included: number;
  total: number;
  format: 'full' | 'compact' | 'none';
  warning?: string;
}

/** One collator: `localeCompare(…, 'en')` builds a new one per comparison. */
export const byName = new Intl.Collator('en').compare;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const INTRO = '\n\nThe skills below hold instructions for particular kinds of task.';
const RELATIVE = "Paths inside a skill file are relative to its skill's directory (the folder holding SKILL.md): resolve them against it and use the absolute path in tool calls.";

function header(mode: 'full' | 'compact', withDescriptions: boolean): string[] {
  if (mode === 'full') {
    return [
      INTRO,
      "When a task matches a skill's description, use the read tool to load the SKILL.md at its location.",
      "If a skill's <version> differs from the one you saw in an earlier turn, read its SKILL.md again before following it.",
      RELATIVE,
    ];
  }
  return [INTRO, `When a task matches a skill's ${withDescriptions ? 'name or description' : 'name'}, use the read tool to load the SKILL.md at its location.`, RELATIVE];
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Whitespace collapsed, cut to at most `max` characters ending in `...`. */
export function shortenDescription(text: string, max: number): string {
  return cut(collapse(text), max);
}

function cut(flat: string, max: number): string {
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(1, max - 3)).trimEnd()}...`;
}

/** A skill's lines, escaped once: the budget search renders the same skills many times. */
interface Prepared {
  name: string;
  description: string;
  location: string;
  version?: string;
  /** The description with whitespace collapsed, not yet escaped. */
  flat: string;
}

function prepare(s: PromptSkill): Prepared {
  return {
    name: `    <name>${escapeXml(s.name)}</name>`,
    description: `    <description>${escapeXml(s.description)}</description>`,
    location: `    <location>${escapeXml(s.location)}</location>`,
    ...(s.version ? { version: `    <version>${escapeXml(s.version)}</version>` } : {}),
    flat: collapse(s.description),
  };
}

function renderFull(skills: readonly Prepared[]): string {
  const lines = [...header('full', true), '', '<available_skills>'];
  for (const s of skills) {
    lines.push('  <skill>', s.name, s.description, s.location);
    if (s.version) lines.push(s.version);
    lines.push('  </skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

function renderCompact(skills: readonly Prepared[], descriptionChars: number): string {
  const lines = [...header('compact', descriptionChars > 0), '', '<available_skills>'];
  for (const s of skills) {
    lines.push('  <skill>', s.name);
    if (descriptionChars > 0) lines.push(`    <description>${escapeXml(cut(s.flat, descriptionChars))}</description>`);
    lines.push(s.location, '  </skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

function warningLine(included: number, total: number, descriptions: 'shortened' | 'omitted' | undefined): string {
  const how = descriptions ? `compact format, descriptions ${descriptions}` : 'skills.limits.maxSkillsInPrompt';
  return included < total
    ? `Warning: only ${included} of ${total} skills are listed (${how}). Run \`pincer skills check\` to see them all.`
    : `Warning: the skill list uses the compact format (descriptions ${descriptions}) to fit its budget. Run \`pincer skills check\` to see every skill.`;
}

const withWarning = (warning: string | undefined, body: string) => (warning ? `${warning}\n${body}` : body);

/** Largest n in [lo, hi] with fits(n), assuming fits is monotone (true then false); lo - 1 if none. */
function largest(lo: number, hi: number, fits: (n: number) => boolean): number {
  let best = lo - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) (best = mid), (lo = mid + 1);
    else hi = mid - 1;
  }
  return best;
}

export function renderSkillsIndex(input: readonly PromptSkill[], limits: PromptLimits = DEFAULT_PROMPT_LIMITS): RenderedIndex {
  const total = input.length;
  if (total === 0) return { text: '', included: 0, total, format: 'none' };
  const sorted = [...input].sort((a, b) => byName(a.name, b.name));
  const pool = sorted.slice(0, limits.maxSkills).map(prepare);
  const fullWarning = pool.length < total ? warningLine(pool.length, total, undefined) : undefined;
  const full = withWarning(fullWarning, renderFull(pool));
  if (full.length <= limits.maxChars) return { text: full, included: pool.length, total, format: 'full', ...(fullWarning ? { warning: fullWarning } : {}) };

  const compact = (count: number, chars: number) => {
    const descriptions = chars > 0 ? 'shortened' : 'omitted';
    const warning = warningLine(count, total, descriptions);
    return { warning, text: withWarning(warning, renderCompact(pool.slice(0, count), chars)) };
  };
  const count = largest(0, pool.length, (n) => compact(n, 0).text.length <= limits.maxChars);
  if (count <= 0) return { text: '', included: 0, total, format: 'none', warning: warningLine(0, total, 'omitted') };
  const chars = largest(COMPACT_DESCRIPTION_MIN_CHARS, COMPACT_DESCRIPTION_MAX_CHARS, (c) => compact(count, c).text.length <= limits.maxChars);
  const chosen = compact(count, chars >= COMPACT_DESCRIPTION_MIN_CHARS ? chars : 0);
  return { text: chosen.text, included: count, total, format: 'compact', warning: chosen.warning };
}

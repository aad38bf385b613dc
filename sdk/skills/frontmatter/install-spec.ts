/**
 * Install recipes of a skill manifest, validated as a filter (SPEC §6.1). Their strings end up
 * on an installer's command line, so a value that could pass for a flag (`-…`), a path trick
 * (`..`) or a malformed checksum drops the whole spec, never just the field.
 */
import type { SkillInstallSpec } from '../../../protocol/index.js';
import { readList } from './values.js';

const KINDS = ['brew', 'node', 'go', 'uv', 'download'] as const;
type Kind = (typeof KINDS)[number];

const FORMULA = /^[A-Za-z0-9][A-Za-z0-9@+._/-]*$/;
const UV_PACKAGE = /^[A-Za-z0-9][A-Za-z0-9._\-[\]=<>!~+,]*$/;
const GO_MODULE = /^[A-Za-z0-9][A-Za-z0-9._~+\-/]*(?:@[A-Za-z0-9][A-Za-z0-9._~+\-/]*)?$/;
// An npm registry spec: an optional scope, a package name, an optional tag, version or range.
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const NPM_RANGE = /^[A-Za-z0-9.^~<>=*|+ x-]+$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

export type InstallFilterResult = { spec: SkillInstallSpec } | { dropped: string };

function npmProblem(spec: string): string | undefined {
  if (spec.startsWith('-')) return 'package starts with "-"';
  const at = spec.indexOf('@', 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  const range = at === -1 ? undefined : spec.slice(at + 1);
  if (name.length > 214 || !NPM_NAME.test(name)) return `"${spec}" is not an npm registry package name`;
  if (range !== undefined && (range === '' || range.startsWith('-') || !NPM_RANGE.test(range))) return `"${spec}" has an invalid version or tag`;
  return undefined;
}

function checked(value: unknown, pattern: RegExp, what: string): string | { problem: string } | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') return { problem: `${what} is not a non-empty string` };
  const text = value.trim();
  if (!pattern.test(text) || text.includes('..')) return { problem: `${what} "${text.slice(0, 80)}" is not allowed` };
  return text;
}

function httpUrl(value: unknown): string | { problem: string } | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || /\s/.test(value) || value === '') return { problem: 'url is empty or contains whitespace' };
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : { problem: `url scheme ${url.protocol} is not http or https` };
  } catch {
    return { problem: 'url is not a valid URL' };
  }
}

/** Filters one install spec; `dropped` says why it was left out. */
export function filterInstallSpec(raw: unknown): InstallFilterResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { dropped: 'not an object' };
  const input = raw as Record<string, unknown>;
  const kindText = typeof input.kind === 'string' ? input.kind : typeof input.type === 'string' ? input.type : '';
  const kind = kindText.trim().toLowerCase() as Kind;
  if (!KINDS.includes(kind)) return { dropped: `kind "${kindText}" is not one of ${KINDS.join(', ')}` };
  const spec: Record<string, unknown> = { kind };
  for (const key of ['id', 'label'] as const) if (typeof input[key] === 'string') spec[key] = input[key];
  for (const key of ['bins', 'os'] as const) if (input[key] !== undefined) spec[key] = readList(input[key]).items;

  const fields: [string, string | { problem: string } | undefined][] = [
    ['formula', checked(input.formula ?? input.cask, FORMULA, 'formula')],
    ['module', checked(input.module, GO_MODULE, 'module')],
    ['url', httpUrl(input.url)],
  ];
  if (input.package !== undefined) {
    const pkg = typeof input.package === 'string' ? input.package.trim() : '';
    const problem = pkg === '' ? 'package is empty' : kind === 'node' ? npmProblem(pkg) : kind === 'uv' && !UV_PACKAGE.test(pkg) ? `package "${pkg.slice(0, 80)}" is not allowed` : undefined;
    fields.push(['package', problem ? { problem } : pkg]);
  }
  for (const [key, value] of fields) {
    if (typeof value === 'object') return { dropped: value.problem };
    if (value !== undefined) spec[key] = value;
  }
  if (input.sha256 !== undefined) {
    if (typeof input.sha256 !== 'string' || !SHA256.test(input.sha256)) return { dropped: 'sha256 is not 64 hexadecimal digits' };
    spec.sha256 = input.sha256.toLowerCase();
  }
  if (typeof input.archive === 'string') spec.archive = input.archive;
  if (typeof input.extract === 'boolean') spec.extract = input.extract;
  if (typeof input.stripComponents === 'number' && Number.isInteger(input.stripComponents) && input.stripComponents >= 0) spec.stripComponents = input.stripComponents;
  if (typeof input.targetDir === 'string') {
    if (input.targetDir.startsWith('-')) return { dropped: 'targetDir starts with "-"' };
    spec.targetDir = input.targetDir;
  }
  const target = { brew: 'formula', node: 'package', go: 'module', uv: 'package', download: 'url' }[kind];
  if (spec[target] === undefined) return { dropped: `a ${kind} spec needs ${target}` };
  return { spec: spec as SkillInstallSpec };
}

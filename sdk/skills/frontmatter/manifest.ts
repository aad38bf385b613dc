/**
 * The `metadata` manifest of a SKILL.md: a YAML mapping, or a string holding JSON (JSON5's
 * unquoted keys are valid YAML flow style, so write those as a mapping), with the manifest
 * under `pincer` (or the reference's `openclaw`).
 */
import type { SkillManifest } from '../../../protocol/index.js';
import { filterInstallSpec } from './install-spec.js';
import { readBoolean, readList, readString } from './values.js';

export const MANIFEST_KEYS = ['pincer', 'openclaw'] as const;

// A binary's name, never a path (and never `.` or `..`).
const BIN = /^(?!\.+$)[A-Za-z0-9._+-]{1,128}$/;
const ENV = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const CONFIG_PATH = /^[A-Za-z0-9_-]{1,64}(?:\.[A-Za-z0-9_-]{1,64}){0,15}$/;
const OS = /^[a-z0-9_-]{1,32}$/;

export interface ManifestResult {
  manifest?: SkillManifest;
  warnings: string[];
}

function manifestObject(metadata: unknown, warnings: string[]): Record<string, unknown> | undefined {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      warnings.push('metadata is a string that is not JSON; ignored');
      return undefined;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    warnings.push('metadata is not a mapping; ignored');
    return undefined;
  }
  for (const key of MANIFEST_KEYS) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== undefined) {
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) return inner as Record<string, unknown>;
      warnings.push(`metadata.${key} is not a mapping; ignored`);
      return undefined;
    }
  }
  return undefined;
}

/** A list field: strings matching `pattern`; the rest dropped with one warning. */
function list(value: unknown, pattern: RegExp, where: string, warnings: string[]): string[] {
  const { items, dropped } = readList(value);
  const kept = items.filter((item) => pattern.test(item));
  const bad = dropped + items.length - kept.length;
  if (bad > 0) warnings.push(`${where}: ${bad} entr${bad === 1 ? 'y' : 'ies'} dropped (not a valid name)`);
  return kept;
}

export function readManifest(metadata: unknown): ManifestResult {
  const warnings: string[] = [];
  if (metadata === undefined || metadata === null) return { warnings };
  const raw = manifestObject(metadata, warnings);
  if (!raw) return { warnings };
  const manifest: SkillManifest = {};
  const always = readBoolean(raw.always);
  if (always === null) warnings.push('metadata: always is not a boolean; ignored');
  else if (always !== undefined) manifest.always = always;
  for (const key of ['emoji', 'homepage', 'skillKey', 'primaryEnv'] as const) {
    const text = readString(raw[key]);
    if (text !== undefined) manifest[key] = text;
    else if (raw[key] !== undefined) warnings.push(`metadata: ${key} is not a non-empty string; ignored`);
  }
  if (raw.os !== undefined) manifest.os = list(raw.os, OS, 'metadata.os', warnings).map((os) => os.toLowerCase());
  const requires = raw.requires;
  if (requires !== undefined) {
    if (requires === null || typeof requires !== 'object' || Array.isArray(requires)) warnings.push('metadata.requires is not a mapping; ignored');
    else {
      const r = requires as Record<string, unknown>;
      const configEntries = r.config;
      // An object entry in requires.config has no defined meaning: skipped with a warning.
      if (Array.isArray(configEntries) && configEntries.some((entry) => entry !== null && typeof entry === 'object')) {
        warnings.push('metadata.requires.config: object entries are not supported and were skipped');
      }
      manifest.requires = {
        bins: list(r.bins, BIN, 'metadata.requires.bins', warnings),
        anyBins: list(r.anyBins, BIN, 'metadata.requires.anyBins', warnings),
        env: list(r.env, ENV, 'metadata.requires.env', warnings),
        config: list(Array.isArray(configEntries) ? configEntries.filter((entry) => typeof entry !== 'object' || entry === null) : configEntries, CONFIG_PATH, 'metadata.requires.config', warnings),
      };
    }
  }
  if (raw.install !== undefined) {
    const specs = Array.isArray(raw.install) ? raw.install : [raw.install];
    manifest.install = [];
    specs.forEach((entry, index) => {
      const result = filterInstallSpec(entry);
      if ('spec' in result) manifest.install!.push(result.spec);
      else warnings.push(`metadata.install[${index}] dropped: ${result.dropped}`);
    });
  }
  return { manifest, warnings };
}

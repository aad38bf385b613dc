/**
 * What a config change does to each run shape: tools gained and lost, each with the layer that
 * causes it, so a policy change can be reviewed like code.
 */
import { describeRemoval, type ShapeOutcome } from './snapshot.js';
import type { RunShape } from './shapes.js';

export interface ToolChange {
  tool: string;
  /** Why, in the layer's words: `removed by the group layer (groups.team.tools.deny, deny: exec)`. */
  cause: string;
  /** The layer that causes it, when policy does (absent when a plugin's presence does). */
  layer?: string;
  configKey?: string;
}

export interface ShapeDiff {
  label: string;
  run: RunShape['run'];
  gained: ToolChange[];
  lost: ToolChange[];
  /** A run one config refuses (its agent is not listed there). */
  error?: { old?: string; new?: string };
}

function lostCause(tool: string, now: ShapeOutcome): ToolChange {
  const removal = now.removed.get(tool);
  if (removal) return { tool, cause: `removed by ${describeRemoval(removal)}`, layer: removal.layer, configKey: removal.configKey };
  return { tool, cause: 'no enabled plugin serves it any more' };
}

function gainedCause(tool: string, before: ShapeOutcome, now: ShapeOutcome): ToolChange {
  const removal = before.removed.get(tool);
  const plugin = now.pluginOf.get(tool);
  if (removal) return { tool, cause: `no longer removed by ${describeRemoval(removal)}`, layer: removal.layer, configKey: removal.configKey };
  return { tool, cause: `newly served${plugin ? ` by plugin ${plugin}` : ''}` };
}

export function diffShape(shape: RunShape, before: ShapeOutcome, now: ShapeOutcome): ShapeDiff {
  const lost = [...before.tools].filter((t) => !now.tools.has(t)).sort().map((t) => lostCause(t, now));
  const gained = [...now.tools].filter((t) => !before.tools.has(t)).sort().map((t) => gainedCause(t, before, now));
  const diff: ShapeDiff = { label: shape.label, run: shape.run, gained, lost };
  if (before.error !== undefined || now.error !== undefined) diff.error = { old: before.error, new: now.error };
  return diff;
}

export const changed = (d: ShapeDiff) => d.gained.length > 0 || d.lost.length > 0 || (d.error !== undefined && d.error.old !== d.error.new);

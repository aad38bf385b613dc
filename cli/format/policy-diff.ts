/** `pincer policy diff` as text: per changed run shape, + gained and - lost tools with their cause. */
import type { Colors } from './color.js';
import { changed, type ShapeDiff } from '../policy/diff.js';

export function formatPolicyDiff(c: Colors, oldFile: string, newFile: string, diffs: ShapeDiff[]): string {
  const differing = diffs.filter(changed);
  const lines = [`Policy diff: ${oldFile} → ${newFile}`];
  for (const d of differing) {
    lines.push('', c.bold(d.label));
    if (d.error && d.error.old !== d.error.new) lines.push(`  ${c.yellow('!')} ${d.error.new ? `NEW refuses this run: ${d.error.new}` : `OLD refused this run: ${d.error.old}`}`);
    const width = Math.max(0, ...[...d.gained, ...d.lost].map((t) => t.tool.length));
    for (const t of d.gained) lines.push(`  ${c.green('+')} ${t.tool.padEnd(width)}  ${t.cause}`);
    for (const t of d.lost) lines.push(`  ${c.red('-')} ${t.tool.padEnd(width)}  ${t.cause}`);
  }
  const same = diffs.filter((d) => !changed(d)).map((d) => d.label);
  if (same.length) lines.push('', c.dim(`Unchanged: ${same.join('; ')}`));
  const gained = differing.reduce((n, d) => n + d.gained.length, 0);
  const lost = differing.reduce((n, d) => n + d.lost.length, 0);
  lines.push('', differing.length ? `${gained} gained, ${lost} lost across ${differing.length} of ${diffs.length} run shapes.` : `No run shape changes (${diffs.length} compared).`);
  return lines.join('\n');
}

/**
 * Bind parsing for sandboxes. The splitter itself is the SDK policy module's
 * `splitSandboxBindSpec` (SPEC §5.9); this file adds only the mount-option reading.
 */
export { splitSandboxBindSpec, type SandboxBindSpecParts } from '../policy/bind-spec.js';

/** Whether the options segment makes the bind read-only (the last of `ro`/`rw` wins, as in Docker). */
export function isReadOnlyBindOptions(options: string): boolean {
  let readOnly = false;
  for (const option of options.split(',')) {
    const o = option.trim().toLowerCase();
    if (o === 'ro' || o === 'rw') readOnly = o === 'ro';
  }
  return readOnly;
}

import * as z from 'zod';

/**
 * The operator's `confinement` config. Plugins that declare a `confinement` block run under
 * bubblewrap with what they declared; this decides what happens where bubblewrap cannot run.
 */
export const ConfinementConfigSchema = z.strictObject({
  /**
   * Where bubblewrap is missing or cannot create namespaces, a plugin that declared confinement
   * is `refuse`d, or started `unconfined` with a warning. `default`: refuse third-party
   * plugins, start the bundled ones unconfined with a warning.
   */
  whenUnavailable: z.enum(['default', 'refuse', 'unconfined']).default('default'),
  /** Refuse third-party plugins that declare no confinement at all (they run unconfined otherwise). */
  requireDeclaration: z.boolean().default(false),
  /** The bubblewrap binary (default: `bwrap` on PATH). */
  bwrap: z.string().min(1).optional(),
});
export type ConfinementConfig = z.output<typeof ConfinementConfigSchema>;
export type ConfinementConfigInput = z.input<typeof ConfinementConfigSchema>;

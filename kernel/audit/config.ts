/**
 * The operator's `audit` config: where the kernel's audit trail is written, how large a file
 * grows before it rotates, and how many rotated files are kept. On by default, in the state
 * directory (`<state dir>/audit/audit.jsonl`), which confined plugins never see.
 */
import * as z from 'zod';

export const DEFAULT_AUDIT_MAX_FILE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_AUDIT_KEEP_FILES = 5;

export const AuditConfigSchema = z.strictObject({
  /** `false` turns the trail off (default on). */
  enabled: z.boolean().optional(),
  /** The directory of the trail (default `<state dir>/audit`); relative to the config file's folder. */
  dir: z.string().min(1).optional(),
  /** Rotate before a file would grow past this many bytes (default 8 MiB). */
  maxFileBytes: z.number().int().min(4096).optional(),
  /** Rotated files to keep besides the active one (default 5); older ones are deleted. */
  keepFiles: z.number().int().min(1).optional(),
});
export type AuditConfig = z.input<typeof AuditConfigSchema>;

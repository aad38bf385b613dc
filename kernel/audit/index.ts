/** The kernel's audit trail (see trail.ts) and where it lives. */
import { DEFAULT_AUDIT_KEEP_FILES, DEFAULT_AUDIT_MAX_FILE_BYTES, type AuditConfig } from './config.js';
import { AUDIT_JOURNAL_NAME, auditDirOf } from './location.js';
import { AuditTrail } from './trail.js';

export { AuditConfigSchema, type AuditConfig } from './config.js';
export { AUDIT_JOURNAL_NAME, auditDirOf } from './location.js';
export { AUDIT_KINDS, type AuditKind, type AuditRecord } from './record.js';
export { AuditTrail, type AuditTrailView } from './trail.js';

/** The trail a kernel's config asks for: on by default in the state directory. Opens nothing yet. */
export function createAuditTrail(config: AuditConfig | undefined, options: { cwd: string; warn: (message: string) => void }): AuditTrail {
  return new AuditTrail({
    dir: auditDirOf(config, { cwd: options.cwd }),
    name: AUDIT_JOURNAL_NAME,
    maxFileBytes: config?.maxFileBytes ?? DEFAULT_AUDIT_MAX_FILE_BYTES,
    keepFiles: config?.keepFiles ?? DEFAULT_AUDIT_KEEP_FILES,
    warn: options.warn,
  });
}

/**
 * One line of the audit trail: what was decided, about whom, and why, in identifiers and
 * codes. Never params or outputs; the text a record does carry (a hook's reason, a plugin's
 * error, a backend's refusal) passes the call path's redaction before it is written.
 */
import { redactSecrets } from '../shared/redact-secrets.js';

export const AUDIT_KINDS = [
  /** The policy removed tools from a run (once per agent and distinct removal, not per assembly). */
  'policy.removed',
  /** A hook, trusted policy or loop detection vetoed a call. */
  'call.blocked',
  /** The gate refused a call before it ran (approval denied or unavailable, a hook that failed closed, ...). */
  'call.refused',
  'approval.requested',
  'approval.answered',
  /** A sandbox backend (or the workspace router) refused a workspace request: SECURITY_VIOLATION, PROTECTED_PATH, ... */
  'sandbox.refused',
  /** A confined plugin tried what it did not declare. */
  'confinement.denied',
  'plugin.state',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditRecord {
  /** When it was decided (ISO 8601). */
  at: string;
  kind: AuditKind;
  /** Set when the decision denied something: such a record is on disk before the call settles. */
  denied?: true;
  agent?: string;
  session?: string;
  run?: string;
  /** The tool call id. */
  call?: string;
  tool?: string;
  /** The plugin the decision is about (the tool's, or the one whose state changed). */
  plugin?: string;
  code?: string;
  reason?: string;
  /** The hook plugin or trusted policy that blocked, or asked for the approval. */
  by?: string;
  /** The approval's binding digest (tool definition, params, sandbox profile). */
  digest?: string;
  answer?: string;
  remembered?: true;
  backend?: string;
  operation?: string;
  from?: string;
  to?: string;
  layer?: string;
  rule?: string;
  matched?: string[];
  configKey?: string;
  /** Removed tools (the first few) and how many there were. */
  tools?: string[];
  count?: number;
}

/** What a source hands the trail: everything but the time, which the trail stamps. */
export type AuditEntry = Omit<AuditRecord, 'at'>;

const MAX_REASON_CHARS = 500;
const MAX_FIELD_CHARS = 200;
const MAX_LIST_ENTRIES = 20;

/** One line, bounded: control characters (a terminal's escapes included) become spaces. */
function clip(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The record as written: secrets masked (the call path's redaction), text clipped, lists bounded. */
export function sanitizeRecord(record: AuditRecord): AuditRecord {
  const redacted = redactSecrets(record) as Record<string, unknown>;
  for (const [key, value] of Object.entries(redacted)) {
    if (value === undefined) delete redacted[key];
    else if (typeof value === 'string') redacted[key] = clip(value, key === 'reason' ? MAX_REASON_CHARS : MAX_FIELD_CHARS);
    else if (Array.isArray(value)) redacted[key] = value.slice(0, MAX_LIST_ENTRIES).map((entry) => clip(String(entry), MAX_FIELD_CHARS));
  }
  return redacted as unknown as AuditRecord;
}

/**
 * The system tool's audit log: one JSON line per attempt (refused, done or failed), appended
 * and fsynced before the attempt's answer is returned, in an owner-only file. Records carry
 * digests and changed config paths, never values (a patch may hold a secret).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface AuditRecord {
  at: string;
  action: string;
  digest: string;
  /** `started` is written before an approved action runs; `done` or `failed` after it. */
  decision: 'refused' | 'started' | 'done' | 'failed';
  reason?: string;
  /** The caller's params carried an `approved` field, which never counts. */
  approvedParamIgnored?: boolean;
  approvalId?: string;
  changedPaths?: string[];
  configHash?: string;
}

export function appendAuditRecord(file: string, record: AuditRecord): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const fd = openSync(file, 'a', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

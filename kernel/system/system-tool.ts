/**
 * The system tool: config writes and restarts, which the read-only `gateway` tool never does.
 * It is not a contribution and never enters a run's tool set (no profile, allow list or `*`
 * can reach it); only the embedding host holds it. Every action needs an approval the host
 * armed for exactly that action (an `approved` param is ignored, whoever wrote it), and every
 * attempt is written to the audit log before the answer returns.
 */
import type { ToolResult } from '../gate/index.js';
import { ApprovalArming, actionDigest, type ArmedApproval } from './approvals.js';
import { appendAuditRecord, type AuditRecord } from './audit-log.js';
import { ConfigWriteError, applyMergePatch, hashText, readConfigText, writeConfigAtomically } from './config-write.js';

export const SYSTEM_TOOL_NAME = 'pincer';
export const SYSTEM_ACTIONS = ['config.patch', 'config.apply', 'restart'] as const;

export interface SystemToolOptions {
  /** The config file the actions write. */
  configPath: string;
  /** Where every attempt is recorded (JSON lines, owner-only). */
  auditLogPath: string;
  /** Restarts the host's kernel; without it `restart` is refused. */
  restart?: (reason: string) => Promise<void>;
  approvalTtlMs?: number;
}

export interface SystemTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Host only: approve exactly these params once (after a human said yes to them). */
  arm(params: Record<string, unknown>): ArmedApproval;
  execute(params: Record<string, unknown>, options?: { approval?: ArmedApproval }): Promise<ToolResult>;
}

const INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: {
    action: { type: 'string', enum: [...SYSTEM_ACTIONS] },
    patch: { type: 'object', description: 'config.patch: a JSON merge patch (null deletes a key).' },
    config: { type: 'object', description: 'config.apply: the whole new config.' },
    baseHash: { type: 'string', description: 'The config hash the change was based on; a changed file refuses the write.' },
    reason: { type: 'string', description: 'restart: why.' },
  },
  required: ['action'],
  additionalProperties: false,
});

class SystemRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function result(code: string | undefined, text: string, details: Record<string, unknown>): ToolResult {
  if (code === undefined) return { content: [{ type: 'text', text }], details };
  return { content: [{ type: 'text', text: `Error [${code}]: ${text}` }], details: { ...details, error: { code, message: text } }, isError: true };
}

function optionalHash(params: Record<string, unknown>): string | undefined {
  if (params.baseHash === undefined) return undefined;
  if (typeof params.baseHash !== 'string') throw new SystemRefusal('INVALID_PARAMS', '"baseHash" must be a string');
  return params.baseHash;
}

export function createSystemTool(options: SystemToolOptions): SystemTool {
  const arming = new ApprovalArming(options.approvalTtlMs);

  async function perform(action: string, params: Record<string, unknown>): Promise<{ text: string; changedPaths?: string[]; configHash?: string }> {
    if (action === 'restart') {
      if (!options.restart) throw new SystemRefusal('RESTART_UNAVAILABLE', 'this host cannot restart the kernel');
      await options.restart(typeof params.reason === 'string' ? params.reason : 'requested through the system tool');
      return { text: 'The kernel was restarted.' };
    }
    const changedPaths: string[] = [];
    let next: unknown;
    if (action === 'config.patch') {
      if (params.patch === null || typeof params.patch !== 'object' || Array.isArray(params.patch)) throw new SystemRefusal('INVALID_PARAMS', '"patch" must be an object');
      next = applyMergePatch(JSON.parse(readConfigText(options.configPath)), params.patch, [], changedPaths);
    } else {
      if (params.config === null || typeof params.config !== 'object' || Array.isArray(params.config)) throw new SystemRefusal('INVALID_PARAMS', '"config" must be an object');
      next = params.config;
      changedPaths.push('(root)');
    }
    const configHash = writeConfigAtomically(options.configPath, next, optionalHash(params));
    return { text: `Wrote ${options.configPath} (${configHash}); changed: ${changedPaths.join(', ') || 'nothing'}. It takes effect after a restart.`, changedPaths, configHash };
  }

  async function execute(params: Record<string, unknown>, call: { approval?: ArmedApproval } = {}): Promise<ToolResult> {
    const action = typeof params.action === 'string' ? params.action : '';
    const record: AuditRecord = { at: new Date().toISOString(), action: action.slice(0, 64) || '(none)', digest: actionDigest(params), decision: 'refused' };
    if ('approved' in params) record.approvedParamIgnored = true;
    let outcome: ToolResult;
    try {
      if (!(SYSTEM_ACTIONS as readonly string[]).includes(action)) throw new SystemRefusal('UNKNOWN_ACTION', `unknown action ${JSON.stringify(action.slice(0, 64))}; actions: ${SYSTEM_ACTIONS.join(', ')}`);
      const refusal = arming.consume(call.approval, params);
      if (refusal) throw new SystemRefusal('APPROVAL_REQUIRED', `${action} needs an approval armed by the host: ${refusal}. Nothing was changed.`);
      record.approvalId = call.approval!.id;
      // Audited before it runs: no change can happen without a record, even if the final one cannot be written.
      appendAuditRecord(options.auditLogPath, { ...record, decision: 'started' });
      record.decision = 'failed';
      const done = await perform(action, params);
      Object.assign(record, { decision: 'done', changedPaths: done.changedPaths, configHash: done.configHash });
      outcome = result(undefined, done.text, { action, ...(done.configHash ? { configHash: done.configHash } : {}) });
    } catch (error) {
      const code = error instanceof SystemRefusal || error instanceof ConfigWriteError ? error.code : 'SYSTEM_ACTION_FAILED';
      record.reason = `${code}: ${(error as Error).message}`.slice(0, 2000);
      outcome = result(code, (error as Error).message, { action });
    }
    appendAuditRecord(options.auditLogPath, record);
    return outcome;
  }

  return {
    name: SYSTEM_TOOL_NAME,
    description: 'Change Pincer\'s config or restart it. Every action needs an approval armed by the host.',
    inputSchema: INPUT_SCHEMA,
    arm: (params) => arming.arm(params),
    execute,
  } satisfies SystemTool;
}

/** The hash of a config file's text, as `baseHash` expects it. */
export const configFileHash = (text: string): string => hashText(text);

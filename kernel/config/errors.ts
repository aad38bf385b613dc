/** A config problem at one path (`agents.list[0].tools.allow[2]`). */
export interface ConfigIssue {
  path: string;
  message: string;
}

export type ConfigErrorCode = 'CONFIG_INVALID' | 'CONFIG_NOT_FOUND' | 'CONFIG_UNREADABLE';

/** Bad config: every problem with its path, never a silent fallback. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
    readonly issues: ConfigIssue[] = [],
    readonly source?: string,
    options?: { cause?: unknown },
  ) {
    super(issues.length > 0 ? `${message}\n${issues.map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n')}` : message, options);
  }
}

/** A skill command the run cannot dispatch, named with the reason. */
export type SkillCommandErrorCode = 'UNKNOWN_SKILL' | 'NOT_USER_INVOCABLE' | 'NOT_A_TOOL_COMMAND';

export class SkillCommandError extends Error {
  override readonly name = 'SkillCommandError';
  constructor(
    readonly code: SkillCommandErrorCode,
    message: string,
  ) {
    super(message);
  }
}

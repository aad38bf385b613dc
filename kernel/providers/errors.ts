/** A tool a provider would refuse, named with the provider's rule, before any request is sent. */
export type ProviderToolErrorCode = 'INVALID_TOOL_NAME';

export class ProviderToolError extends Error {
  override readonly name = 'ProviderToolError';
  constructor(
    readonly code: ProviderToolErrorCode,
    message: string,
    readonly provider: string,
    readonly tool: string,
  ) {
    super(message);
  }
}

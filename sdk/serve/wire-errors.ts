import { ResponseError } from 'vscode-jsonrpc';
import * as z from 'zod';
import { ProtocolErrorCodes, type ProtocolErrorData } from '../../protocol/index.js';
import { PluginError, WorkspaceError } from '../plugin/errors.js';
import { confinementDenied } from './confinement-denial.js';

/** Turns whatever a handler threw into the error response the kernel receives. */
export function toResponseError(error: unknown, signal: { readonly aborted: boolean }, tool?: string): ResponseError<ProtocolErrorData> {
  if (error instanceof ResponseError) return error as ResponseError<ProtocolErrorData>;
  if (error instanceof WorkspaceError) return new ResponseError(ProtocolErrorCodes.WorkspaceError, error.message, error.data);
  if (error instanceof PluginError) return new ResponseError(error.code, error.message, error.data);
  if (error instanceof z.ZodError) {
    return new ResponseError(ProtocolErrorCodes.InvalidParams, `invalid params: ${z.prettifyError(error)}`, { tool, detail: error.issues });
  }
  if (signal.aborted) return new ResponseError(ProtocolErrorCodes.RequestCancelled, 'the request was cancelled', { tool });
  const denied = confinementDenied(error, tool);
  if (denied) return denied;
  const message = error instanceof Error ? error.message : String(error);
  return new ResponseError(ProtocolErrorCodes.ToolFailed, message, { tool });
}

/** Runs a handler, mapping thrown errors to wire errors. */
export async function guarded<T>(signal: { readonly aborted: boolean }, tool: string | undefined, run: () => Promise<T>): Promise<T | ResponseError<ProtocolErrorData>> {
  try {
    return await run();
  } catch (error) {
    return toResponseError(error, signal, tool);
  }
}

/**
 * Split a Docker-style bind spec `host:container[:options]` without validating it.
 * A Windows drive prefix (`C:\` or `C:/`) on the host side is never taken for the
 * separator; with `allowWindowsContainerPath` the container side keeps its drive too.
 */
import { PolicyInputError, describeValue } from './errors.js';

export interface SandboxBindSpecParts {
  host: string;
  container: string;
  options: string;
}

const DRIVE_PREFIX = /^[A-Za-z]:[\\/]/;

function separatorIndex(spec: string): number {
  return spec.indexOf(':', DRIVE_PREFIX.test(spec) ? 2 : 0);
}

/** Raw `{ host, container, options }` segments, or `null` when there is no separator. */
export function splitSandboxBindSpec(spec: string, options?: { allowWindowsContainerPath?: boolean }): SandboxBindSpecParts | null {
  if (typeof spec !== 'string') throw new PolicyInputError('INVALID_BIND_SPEC', 'spec', `expected a bind spec string, got ${describeValue(spec)}`);
  const separator = separatorIndex(spec);
  if (separator === -1) return null;
  const host = spec.slice(0, separator);
  const rest = spec.slice(separator + 1);
  const optionsStart = options?.allowWindowsContainerPath === true ? separatorIndex(rest) : rest.indexOf(':');
  if (optionsStart === -1) return { host, container: rest, options: '' };
  return { host, container: rest.slice(0, optionsStart), options: rest.slice(optionsStart + 1) };
}

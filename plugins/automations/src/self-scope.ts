/**
 * Inside a cron run the automations tool serves only the run's own job: `status` and `list`
 * show only it, `get`, `runs` and `remove` work only on it, and everything else is refused
 * with the reference's text. A run that is not a cron run is not restricted.
 */
export const SELF_SCOPE_REFUSAL = 'Automations tool is restricted to the current automation.';

const OWN_JOB_ONLY = new Set(['get', 'remove', 'runs']);
const FILTERED = new Set(['status', 'list']);

/** The job a run is confined to: its own, when it is a cron run with a job id. */
export function selfScopeOf(run: { trigger: string; jobId?: string }): string | undefined {
  const jobId = run.jobId?.trim();
  return run.trigger === 'cron' && jobId ? jobId : undefined;
}

/** Undefined when the action may go ahead, else the refusal text. */
export function selfScopeRefusal(scope: string | undefined, action: string, jobId: string | undefined): string | undefined {
  if (scope === undefined || FILTERED.has(action)) return undefined;
  if (OWN_JOB_ONLY.has(action) && jobId?.trim() === scope) return undefined;
  return SELF_SCOPE_REFUSAL;
}

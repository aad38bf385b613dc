/** The report shape of `pincer sandbox check`, shared by the per-backend checks and the formatter. */

export interface CheckStep {
  /** `engine`, `image`, `protected-paths`, `settings`, `connect`, `host-key`, `backend`. */
  name: string;
  ok: boolean;
  detail: string;
  /** The backend's error code when the step failed (IMAGE_MISSING, HOST_KEY_REJECTED, …). */
  code?: string;
}

export interface BackendCheck {
  backend: string;
  /** The agent the checked settings belong to; absent for the config defaults. */
  agent?: string;
  ok: boolean;
  /** False for backends the CLI has no self-test for: reported honestly as not checked. */
  checked?: boolean;
  checks: CheckStep[];
}

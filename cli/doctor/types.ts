/** One line of `pincer doctor`: what was checked, how it went, and for anything not ok, the fix. */

export type Severity = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorLine {
  /** `node`, `config`, `plugins`, `backends`, `skills`. */
  section: string;
  /** What the line is about: `version`, a config path, a plugin id, a backend step. */
  subject: string;
  status: Severity;
  detail: string;
  /** What to do about a `warn` or `fail`. */
  fix?: string;
}

export const line = (section: string, subject: string, status: Severity, detail: string, fix?: string): DoctorLine =>
  fix === undefined ? { section, subject, status, detail } : { section, subject, status, detail, fix };

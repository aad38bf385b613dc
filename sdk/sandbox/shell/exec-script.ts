import { PRELUDE } from '../guard/scripts.js';
import { PID_MARKER, STRAY_MARKER } from './capture.js';
import { envExports } from './quote.js';

/**
 * The wrapper every command runs under inside a shell-backed sandbox (docker, ssh).
 * After the guard's tables (see guard/scripts.ts PRELUDE): $1 cwd (resolved, judged and
 * walked in this same step, like any path), $2 the command, $3 how many bytes of stdin are
 * the command's input.
 *
 * - The input is staged in an unlinked temp file first, so the rest of the wrapper's stdin
 *   is a pure lifeline: the backend keeps it open and writes nothing more. When it closes
 *   (the backend exited or crashed, the kernel died, the connection dropped), a watcher
 *   kills the command's whole group. Nothing runs on after its backend is gone, also when
 *   the lifeline is closed before the command has its group (the watcher kills its pid too).
 * - The command leads a session of its own (setsid), so its group can be killed as one; it
 *   prints its pid as the first thing on stderr, before any output of its own.
 * - After it exits, whatever it left running in its group is killed, and the wrapper says so
 *   as the last thing on stderr (`&` and `nohup` children do not outlive the call).
 */
const EXEC_BODY = [
  'if [ "$3" -gt 0 ]; then',
  '  i=$(mktemp) || pf "IO_ERROR:cannot stage the command input (mktemp failed)"',
  '  head -c "$3" > "$i" || pf "IO_ERROR:cannot stage the command input"',
  '  exec 4<"$i"; rm -f -- "$i"',
  'else exec 4</dev/null; fi',
  'exec 5<&0 0</dev/null',
  `r='printf "${PID_MARKER}%s\\n" "$$" >&2; exec sh -c "$1"'`,
  'w=',
  'if command -v setsid >/dev/null 2>&1; then',
  '  setsid sh -c "$r" pincer "$2" <&4 4<&- 5<&- & k=$!',
  // The pid first: a lifeline already closed ends cat before $k may have called setsid, when
  // there is no group $k yet; killed before it, $k never runs the command.
  `  setsid sh -c 'cat >/dev/null 2>&1; kill -KILL "$1" 2>/dev/null; kill -KILL -"$1" 2>/dev/null' pincer "$k" <&5 >/dev/null 2>&1 4<&- 5<&- & w=$!`,
  'else',
  '  sh -c "$r" pincer "$2" <&4 4<&- 5<&- & k=$!',
  'fi',
  'exec 4<&- 5<&-',
  'wait "$k"; s=$?',
  '[ -n "$w" ] && kill -KILL -"$w" 2>/dev/null',
  `if kill -0 -"$k" 2>/dev/null; then kill -KILL -"$k" 2>/dev/null; printf '${STRAY_MARKER.replace('\n', '\\n')}' >&2; fi`,
  'exit $s',
].join('\n');

/** The whole exec script: guard prelude, resolve, judge and enter the cwd, the call's env, then the wrapper. */
export function execScript(env: Record<string, string>): string {
  return `${PRELUDE}resolve "$1" 0 r; walk "$C" 0\n${envExports(env)}\n${EXEC_BODY}\n`;
}

import { PRELUDE } from '../guard/scripts.js';

/**
 * File operation scripts. Each takes canonical targets (from the guard) and first walks
 * to the parent directory with `walk`, which re-checks every component physically,
 * immediately before acting (SPEC §5.6 "re-check before mutating commands").
 */
const s = (...lines: string[]) => `${PRELUDE}${lines.join('\n')}\n`;

/** $1 target, $2 max bytes. Streams at most max+1 bytes so growth past the cap is seen. */
export const READ_SCRIPT = s(
  'split "$1"; walk "$D" 0',
  '[ -L "$B" ] && pf "CHANGED:$1"',
  '[ -e "$B" ] || pf "NOT_FOUND:$1"',
  '[ -f "$B" ] || pf "NOT_A_FILE:$1"',
  'n=$(stat -c %s -- "$B") || pf "IO_ERROR:stat $1"',
  '[ "$n" -le "$2" ] || pf "FILE_TOO_LARGE:$n bytes"',
  'exec head -c "$(($2 + 1))" < "$B"',
);

/** $1 target. Prints `<type>|<size>|<mtime s>`. */
export const STAT_SCRIPT = s(
  'split "$1"; if [ -z "$B" ]; then walk / 0; B=.; else walk "$D" 0; fi',
  '[ -e "$B" ] || [ -L "$B" ] || pf "NOT_FOUND:$1"',
  'LC_ALL=C stat -c "%F|%s|%Y" -- "$B" || pf "IO_ERROR:stat $1"',
);

/** $1 directory. Records `<type>|<size>|<mtime>\n<name>\0`; names may hold newlines, never NUL. */
export const LIST_SCRIPT = s(
  'walk "$1" 0',
  'for f in * .[!.]* ..?*; do',
  '  [ -e "$f" ] || [ -L "$f" ] || continue',
  '  LC_ALL=C stat -c "%F|%s|%Y" -- "$f" || continue',
  "  printf '%s\\000' \"$f\"",
  'done',
);

/**
 * $1 target, $2 mkdirs, $3 append; content on stdin. Temp file in the same directory,
 * then rename: readers never see half a file, and a symlink swapped in at the final
 * name is replaced, not followed. Prints the new size.
 */
export const WRITE_SCRIPT = s(
  'split "$1"; walk "$D" "$2"',
  '[ -L "$B" ] && pf "CHANGED:$1"',
  '[ -d "$B" ] && pf "NOT_A_FILE:$1"',
  't=$(mktemp ./.pincer-write.XXXXXX) || pf "IO_ERROR:cannot create a temporary file in $D"',
  'trap \'rm -f -- "$t"\' EXIT',
  'if [ "$3" = 1 ] && [ -f "$B" ]; then cat -- "$B" > "$t" || pf "IO_ERROR:read $1"; fi',
  'cat >> "$t" || pf "IO_ERROR:write $1"',
  'if [ -f "$B" ]; then m=$(stat -c %a -- "$B"); else m=$(printf %o $((0666 & ~$(umask)))); fi',
  'chmod "$m" "$t" 2>/dev/null',
  '[ -L "$B" ] && pf "CHANGED:$1"',
  'mv -f -- "$t" "$B" || pf "IO_ERROR:rename into $1"',
  'trap - EXIT',
  'stat -c %s -- "$B"',
);

/** $1 target, $2 recursive. */
export const MKDIR_SCRIPT = s(
  'if [ "$2" = 1 ]; then walk "$1" 1; exit 0; fi',
  'split "$1"; walk "$D" 0',
  '{ [ -e "$B" ] || [ -L "$B" ]; } && pf "EXISTS:$1"',
  'mkdir -- "$B" || pf "IO_ERROR:mkdir $1"',
);

/** $1 target (final symlink literal), $2 recursive. */
export const REMOVE_SCRIPT = s(
  'split "$1"; walk "$D" 0',
  '[ -e "$B" ] || [ -L "$B" ] || pf "NOT_FOUND:$1"',
  'if [ -d "$B" ] && [ ! -L "$B" ]; then',
  '  if [ "$2" = 1 ]; then rm -rf -- "$B" || pf "IO_ERROR:remove $1"; else rmdir -- "$B" 2>/dev/null || pf "NOT_EMPTY:$1"; fi',
  'else rm -f -- "$B" || pf "IO_ERROR:remove $1"; fi',
);

/**
 * $1 source, $2 destination (both canonical, final symlinks literal). The destination's
 * parent is walked first, then the source's; an existing directory destination is refused
 * (mv would otherwise move the source INTO it).
 */
export const RENAME_SCRIPT = s(
  'split "$2"; TD=$D; TB=$B; walk "$TD" 0',
  '[ -d "$TB" ] && [ ! -L "$TB" ] && pf "EXISTS:$2"',
  'split "$1"; walk "$D" 0',
  '[ -e "$B" ] || [ -L "$B" ] || pf "NOT_FOUND:$1"',
  'mv -f -- "$B" "$TD/$TB" || pf "IO_ERROR:rename $1"',
);

import { PRELUDE } from '../guard/scripts.js';

/**
 * File operation scripts (their own variables are UPPER case: the guard's functions use
 * lower-case globals, sh having no locals). Each is ONE remote step: it resolves its target, lets the guard
 * judge the canonical path (`resolve`), walks to the directory physically (`walk`), and
 * acts there; nothing is checked in one command and used in another. Each prints a
 * header `<L>|<canonical>\0` (see `hdr`) before its own output.
 */
const s = (...lines: string[]) => `${PRELUDE}${lines.join('\n')}\n`;

/**
 * $1 target, $2 max bytes. Opens first, then proves the descriptor is the checked file
 * (`held`) and reads metadata from it: `<stat>\0` and at most max+1 bytes, so growth
 * past the cap is seen.
 */
export const READ_SCRIPT = s(
  'resolve "$1" 0 r; hdr',
  'split "$C"; walk "$D" 0',
  '[ -L "$B" ] && pf "CHANGED:$C"',
  '[ -e "$B" ] || pf "NOT_FOUND:$C"',
  '[ -f "$B" ] || pf "NOT_A_FILE:$C"', // before the open: opening a FIFO would block
  'command exec 3< "$B" || pf "IO_ERROR:cannot open $C"',
  'held',
  'SL=$(st -L -c "$SF" "/proc/$$/fd/3") || pf "IO_ERROR:cannot stat $C"',
  'fields "$SL"',
  'case $FK in regular*) ;; *) pf "NOT_A_FILE:$C";; esac',
  '[ "$FH" -le 1 ] || [ "$O" = h ] || pf "HARD_LINKED:$FH"',
  '[ "$FS" -le "$2" ] || pf "FILE_TOO_LARGE:$FS bytes"',
  "printf '%s\\0' \"$SL\"",
  'exec head -c "$(($2 + 1))" <&3',
);

/** $1 target. Prints `<stat>` of the entry itself (a swapped-in link is reported, not followed). */
export const STAT_SCRIPT = s(
  'resolve "$1" 0 r; hdr',
  'split "$C"; if [ -z "$B" ]; then walk / 0; B=.; else walk "$D" 0; fi',
  '[ -e "$B" ] || [ -L "$B" ] || pf "NOT_FOUND:$C"',
  'st -c "$SF" -- "$B" || pf "IO_ERROR:cannot stat $C"',
);

/** $1 directory. Records `<type>|<size>|<mtime>\n<name>\0`; names may hold newlines, never NUL. */
export const LIST_SCRIPT = s(
  'resolve "$1" 0 r; hdr',
  'walk "$C" 0',
  'for f in * .[!.]* ..?*; do',
  '  [ -e "$f" ] || [ -L "$f" ] || continue',
  '  st -c "%F|%s|%Y" -- "$f" || continue',
  "  printf '%s\\000' \"$f\"",
  'done',
);

/**
 * $1 target, $2 mkdirs, $3 append, $4 byte count, $5 mode of a new file (octal, '' = umask
 * default), $6 expected version ('' = any), $7 create only, $8 temp name suffix (random,
 * from the host); content on stdin. The temp file is created exclusively (O_EXCL: never
 * through a name someone placed first) and then used only through its descriptor (fd 5):
 * filled, checked for the announced size (a writer killed mid-stream must not replace the
 * file with half of it), given the replaced file's mode (minus set-id bits) and owner where
 * permitted, synced. The target is re-checked, then the temp is renamed over it (`-T`:
 * never into a directory). Prints the new size.
 */
export const WRITE_SCRIPT = s(
  'T=$1 MK=$2 AP=$3 N=$4 MO=$5 EV=$6 CO=$7 TMP=.pincer-tmp-$8 OW=',
  'resolve "$T" 0 w; hdr',
  'split "$C"; walk "$D" "$MK"',
  'cur() {',
  '  X=0; [ -L "$B" ] && pf "CHANGED:$C"; [ -e "$B" ] || return 0',
  '  [ -d "$B" ] && pf "NOT_A_FILE:$C"',
  '  fields "$(st -c "$SF" -- "$B")"; X=1',
  '  case $FK in regular*) ;; *) pf "NOT_A_FILE:$C";; esac',
  '  [ "$FH" -le 1 ] || [ "$O" = h ] || pf "HARD_LINKED:$FH"',
  '}',
  'vcheck() {',
  '  [ "$CO" = 1 ] && [ $X = 1 ] && pf "CONFLICT:something already exists at this path"',
  '  [ -z "$EV" ] && return 0',
  '  [ $X = 1 ] || pf "CONFLICT:the file was removed since it was read"',
  '  [ "$FV" = "$EV" ] || pf "CONFLICT:the file changed since it was read"',
  '}',
  'cur; vcheck',
  // An append is a read-modify-write: bytes another writer adds meanwhile must not be lost.
  'if [ $X = 1 ]; then MO=$(printf %o $((0$FM & 0777))); OW=$FO; [ "$AP" = 1 ] && [ -z "$EV" ] && EV=$FV; fi',
  '[ -n "$MO" ] || MO=$(printf %o $((0666 & ~$(umask))))',
  "trap 'rm -f -- \"$TMP\"' EXIT",
  "trap 'exit 1' HUP INT TERM PIPE",
  'u=$(umask); umask 077; set -C',
  'command exec 5> "$TMP" || pf "IO_ERROR:cannot create a temporary file in $D"',
  'set +C; umask "$u"; W=/proc/$$/fd/5',
  'F=$(readlink -n "$W" && printf .); [ "${F%.}" = "${PWD%/}/$TMP" ] || pf "CHANGED:$C"',
  'if [ "$AP" = 1 ] && [ $X = 1 ]; then',
  '  command exec 3< "$B" || pf "IO_ERROR:cannot open $C"',
  '  held; cat <&3 >&5 || pf "IO_ERROR:cannot read $C"; exec 3<&-',
  'fi',
  'S0=$(st -L -c %s "$W")',
  'cat >&5 || pf "IO_ERROR:cannot write $C"',
  'S1=$(st -L -c %s "$W")',
  '[ "$S1" -eq $((S0 + N)) ] || pf "IO_ERROR:the content arrived incomplete ($((S1 - S0)) of $N bytes); nothing was written"',
  'chmod "$MO" "$W" || pf "IO_ERROR:cannot set the mode of $C"',
  '[ -n "$OW" ] && chown "$OW" "$W" 2>/dev/null',
  'sync -- "$W" 2>/dev/null',
  'exec 5>&-',
  'cur; vcheck',
  'if [ "$CO" != 1 ]; then mv -fT -- "$TMP" "$B" || pf "IO_ERROR:cannot rename into $C"',
  // link() never replaces: a name that appeared meanwhile makes it fail.
  'elif ! ln -T -- "$TMP" "$B" 2>/dev/null; then',
  '  { [ -e "$B" ] || [ -L "$B" ]; } && pf "CONFLICT:something already exists at this path"',
  '  mv -fT -- "$TMP" "$B" || pf "IO_ERROR:cannot rename into $C"',
  'fi',
  'printf %s "$S1"',
);

/** $1 target, $2 recursive. */
export const MKDIR_SCRIPT = s(
  'resolve "$1" 0 w; hdr',
  'if [ "$2" = 1 ]; then walk "$C" 1; exit 0; fi',
  'split "$C"; walk "$D" 0',
  '{ [ -e "$B" ] || [ -L "$B" ]; } && pf "EXISTS:$C"',
  'mkdir -- "$B" || pf "IO_ERROR:cannot create directory $C"',
);

/** $1 target (final symlink literal), $2 recursive. */
export const REMOVE_SCRIPT = s(
  'resolve "$1" 1 d; hdr',
  'split "$C"; walk "$D" 0',
  '[ -e "$B" ] || [ -L "$B" ] || pf "NOT_FOUND:$C"',
  'if [ -d "$B" ] && [ ! -L "$B" ]; then',
  '  if [ "$2" = 1 ]; then rm -rf -- "$B" || pf "IO_ERROR:cannot remove $C"; else rmdir -- "$B" 2>/dev/null || pf "NOT_EMPTY:$C"; fi',
  'else rm -f -- "$B" || pf "IO_ERROR:cannot remove $C"; fi',
);

/**
 * $1 source, $2 destination (final symlinks literal). The destination's directory is
 * walked and held open as fd 4, then the source's is entered, and the rename names the
 * destination through /proc/$$/fd/4, so neither end is resolved by path again. An existing
 * directory destination is refused (mv would otherwise move the source INTO it).
 */
export const RENAME_SCRIPT = s(
  'resolve "$1" 1 d; S=$C; hdr',
  'resolve "$2" 1 d; hdr',
  'split "$C"; TB=$B; walk "$D" 0',
  '[ -d "$TB" ] && [ ! -L "$TB" ] && pf "EXISTS:$C"',
  'command exec 4< . || pf "IO_ERROR:cannot open the directory of $C"',
  'split "$S"; walk "$D" 0',
  '[ -e "$B" ] || [ -L "$B" ] || pf "NOT_FOUND:$S"',
  'mv -fT -- "$B" "/proc/$$/fd/4/$TB" || pf "IO_ERROR:cannot rename $S"',
);

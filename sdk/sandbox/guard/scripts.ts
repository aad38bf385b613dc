/**
 * POSIX sh fragments run INSIDE the sandbox (busybox ash, dash and bash alike).
 * Every dynamic value arrives as a positional argument, never interpolated into the text.
 *
 * Failures print `__PINCER_ERR__<CODE>:<detail>` on stderr and exit 86; see failure.ts.
 */
export const GUARD_EXIT_CODE = 86;

/**
 * Fields of `stat -c` the scripts print: links|size|type|mtime|mode|uid:gid|version, where
 * the version is device, inode, size and the nanosecond modification and change times.
 */
export const STAT_FORMAT = '%h|%s|%F|%y|%a|%u:%g|%d:%i:%s:%y:%z';

/**
 * canon: the canonical path of $1 computed in the sandbox: readlink -f of the deepest
 * existing ancestor plus the missing suffix. With $2=1 a final symlink is kept literal
 * (remove/rename act on the link itself). Sets C, and L=1 when $1 is a link.
 *
 * judge: the guard's decision on a canonical path, made in the same step that then uses
 * it: the mount that holds it (longest target first, from $M), read-only mounts, mount
 * roots and protected paths ($P, compared without ASCII case).
 *
 * walk: cd into a canonical directory one component at a time (creating missing ones
 * when $2=1, each relative to the directory already entered), refusing as soon as the
 * physical cwd differs from the expected path. Once there, the cwd pins that directory:
 * later swaps of an ancestor for a symlink cannot redirect the operation.
 *
 * held: fd 3 (opened after the checks) must be the file named $B in the cwd, proven
 * through /proc: a name swapped between the test and the open is refused.
 */
export const FUNCTIONS = [
  'set -u',
  // Pinned per command, never exported: a command run by exec keeps the sandbox's own locale.
  'st() { LC_ALL=C TZ=UTC stat "$@"; }',
  "nl='",
  "'",
  `SF='${STAT_FORMAT}'`,
  'pf() { printf \'__PINCER_ERR__%s\\n\' "$1" >&2; exit 86; }',
  'canon() {',
  '  t=$1; s=; L=0',
  '  [ -L "$t" ] && L=1',
  '  if [ "$2" = 1 ] && [ "$L" = 1 ]; then s="/${t##*/}"; t=${t%/*}; t=${t:-/}; fi',
  '  c=$t',
  '  while [ ! -e "$c" ]; do',
  '    [ -L "$c" ] && pf "DANGLING:$c"',
  '    p=${c%/*}; p=${p:-/}',
  '    [ "$p" = "$c" ] && break',
  '    s="/${c##*/}$s"; c=$p',
  '  done',
  '  C=$(readlink -n -f -- "$c" && printf .) || pf "IO_ERROR:cannot resolve $c"',
  '  C=${C%.}',
  '  [ "$C" = / ] && C=',
  '  C="$C$s"; C=${C:-/}',
  '}',
  'within() { [ "$2" = / ] || [ "$1" = "$2" ] || [ "${1#"$2"/}" != "$1" ]; }',
  'judge() {',
  '  MT=; MF=; o=$IFS; IFS=$nl; set -f',
  '  for e in $M; do if within "$1" "${e#??}"; then MT=${e#??}; MF=${e%%|*}; break; fi; done',
  '  IFS=$o; set +f',
  '  [ -n "$MT" ] || pf "OUTSIDE:$1"',
  '  [ "$2" = r ] && return 0',
  '  [ "$MF" = w ] || pf "READ_ONLY:$MT"',
  '  [ "$2" = d ] && [ "$1" = "$MT" ] && pf "ROOT:$1"',
  '  [ -n "$P" ] || return 0',
  "  l=$(printf '%s' \"$1\" | LC_ALL=C tr A-Z a-z)",
  '  o=$IFS; IFS=$nl; set -f',
  '  for p in $P; do',
  '    within "$l" "$p" && pf "PROTECTED:$1"',
  '    [ "$2" = d ] && within "$p" "$l" && pf "PROTECTED:$1"',
  '  done',
  '  IFS=$o; set +f',
  '}',
  'resolve() { canon "$1" "$2"; judge "$C" "$3"; }',
  "hdr() { printf '%s|%s\\0' \"$L\" \"$C\"; }",
  'walk() {',
  '  cd / || pf "IO_ERROR:cannot enter /"',
  '  w=; o=$IFS; IFS=/; set -f',
  '  for x in $1; do',
  '    [ -n "$x" ] || continue',
  '    w="$w/$x"',
  '    if [ "$2" = 1 ] && [ ! -e "$x" ] && [ ! -L "$x" ]; then mkdir -- "$x" 2>/dev/null || [ -d "$x" ] || pf "IO_ERROR:cannot create $w"; fi',
  '    if [ ! -d "$x" ]; then if [ -e "$x" ]; then pf "NOT_A_DIRECTORY:$w"; else pf "NOT_FOUND:$w"; fi; fi',
  '    cd -P -- "$x" 2>/dev/null || pf "IO_ERROR:cannot enter $w"',
  '    [ "$PWD" = "$w" ] || pf "CHANGED:$w"',
  '  done',
  '  IFS=$o; set +f',
  '}',
  'split() { D=${1%/*}; D=${D:-/}; B=${1##*/}; }',
  'held() { F=$(readlink -n "/proc/$$/fd/3" && printf .) || pf "IO_ERROR:cannot inspect the opened file"; [ "${F%.}" = "${PWD%/}/$B" ] || pf "CHANGED:$C"; }',
  'fields() { o=$IFS; IFS=\'|\'; set -f; set -- $1; IFS=$o; set +f; FH=$1 FS=$2 FK=$3 FM=$5 FO=$6 FV=$7; }',
  '',
].join('\n');

/**
 * Every operation script starts with the guard's tables: $1 options (`h`: hard-linked
 * files allowed), $2 mounts (`w|target` / `r|target` lines, longest first), $3 protected
 * canonical paths (folded to lower case, one a line). The operation's own arguments follow.
 */
export const PRELUDE = `${FUNCTIONS}O=$1; M=$2; P=$3; shift 3\n`;

/** Canonical targets of the mounts, NUL-separated, computed once when the sandbox opens. */
export const PIN_SCRIPT = `${FUNCTIONS}for m in "$@"; do canon "$m" 0; printf '%s\\0' "$C"; done`;

/** Removes temp files a killed write left behind (older than a minute, so no live write's). */
export const SWEEP_SCRIPT = `find "$@" -xdev -type f -name '.pincer-tmp-*' -mmin +1 -exec rm -f -- {} + 2>/dev/null; exit 0`;

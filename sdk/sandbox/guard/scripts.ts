/**
 * POSIX sh fragments run INSIDE the sandbox (busybox ash, dash and bash alike).
 * Every dynamic value arrives as a positional argument, never interpolated into the text.
 *
 * Failures print `__PINCER_ERR__<CODE>:<detail>` on stderr and exit 86; see parseGuardFailure.
 */
export const GUARD_EXIT_CODE = 86;

export const PRELUDE = [
  'set -u',
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
  '',
].join('\n');
/**
 * canon: the canonical path of $1 computed in the sandbox: readlink -f of the deepest
 * existing ancestor plus the missing suffix. With $2=1 a final symlink is kept literal
 * (remove/rename act on the link itself). Prints `<L>|<canonical>`; L=1 when $1 is a link.
 *
 * walk: cd into a canonical directory one component at a time (creating missing ones
 * when $2=1), refusing as soon as the physical cwd differs from the expected path. Once
 * there, the cwd pins that directory: later swaps of an ancestor for a symlink cannot
 * redirect the operation, which is what closes the check-then-use window.
 */
export const CANON_SCRIPT = `${PRELUDE}canon "$1" "$2"; printf '%s|%s' "$L" "$C"`;

/**
 * The POSIX sh scripts the sync runs on the remote (each as `sh -c <script> pincer <args…>`).
 * The remote needs GNU find and GNU tar (checked when a copy is opened). Paths travel
 * NUL-separated on stdin, never as text lines, so any file name survives.
 */

/**
 * One record per path: `type/mode/size/inode/mtime/ctime` NUL path NUL link-target NUL.
 * Fractional times make any write visible, even one within the second of the last sync.
 */
export const FIND_FORMAT = '%y/%m/%s/%i/%T@/%C@\\0%p\\0%l\\0';

/** Exit status of a refusal whose reason is on stderr (a foreign or symlinked directory). */
export const REFUSED_EXIT = 70;

/**
 * Checks (and creates) the copies' root, owner-only, then opens (`open`) or creates
 * (`create`) one copy: `<root>/<name>/{meta,tree}`. Prints the outcome and the canonical
 * root. A root or copy that is a symlink or belongs to another user is refused.
 */
export const ENSURE_COPY = `set -e
umask 077
root=$1; mode=$2; name=$3; id=$4; meta=$5
[ -n "$root" ] || root="$HOME/.cache/pincer-ssh"
me=$(id -u)
refuse() { printf '%s\\n' "$1" >&2; exit ${REFUSED_EXIT}; }
if [ ! -e "$root" ] && [ ! -L "$root" ]; then mkdir -p -- "$(dirname -- "$root")"; mkdir -- "$root" 2>/dev/null || :; fi
[ ! -L "$root" ] || refuse "the copies' root $root is a symbolic link"
[ -d "$root" ] || refuse "the copies' root $root is not a directory"
owner=$(stat -c %u -- "$root")
[ "$owner" = "$me" ] || refuse "the copies' root $root belongs to uid $owner, not to the ssh user (uid $me)"
chmod 700 -- "$root"
root=$(cd -P -- "$root" && pwd -P)
find / -maxdepth 0 -printf '' 2>/dev/null || refuse "the remote has no GNU find (find -printf)"
tar --version 2>/dev/null | grep -q 'GNU tar' || refuse "the remote has no GNU tar"
copy="$root/$name"
if [ "$mode" = open ]; then
  if [ -d "$copy" ] && [ ! -L "$copy" ] && [ "$(stat -c %u -- "$copy")" = "$me" ] && [ -d "$copy/tree" ] && [ ! -L "$copy/tree" ] \\
     && [ "$(head -n 1 -- "$copy/meta" 2>/dev/null)" = "$id" ]; then
    touch -- "$copy/meta"; printf 'open\\n%s\\n' "$root"; exit 0
  fi
  printf 'gone\\n%s\\n' "$root"; exit 0
fi
mkdir -- "$copy" 2>/dev/null || refuse "$copy already exists"
mkdir -- "$copy/tree"
printf '%s\\n%s\\n' "$id" "$meta" > "$copy/meta"
printf 'created\\n%s\\n' "$root"`;

/** Records (FIND_FORMAT) of the listed paths that exist; stdin: NUL-separated `./path`s. */
export const STAT_PATHS = `cd -P -- "$1" || exit 1
xargs -0 -r sh -c 'find "$@" -maxdepth 0 -printf "$0" 2>/dev/null; exit 0' '${FIND_FORMAT}'`;

/** `sha256  path` NUL for each listed regular file; stdin: NUL-separated `./path`s. */
export const HASH_PATHS = `cd -P -- "$1" || exit 1
xargs -0 -r sha256sum -z -- 2>/dev/null; exit 0`;

/** Records (FIND_FORMAT) of the whole tree; the arguments after the tree are a find prune expression. */
export const MANIFEST = `cd -P -- "$1" || exit 1
shift
exec find . -mindepth 1 "$@" -printf '${FIND_FORMAT}'`;

/**
 * Applies one batch. stdin: three length-prefixed (`<n>` newline, then n bytes) NUL-separated lists:
 * files and links to remove, directories to remove when empty (deepest first), and paths to
 * report afterwards; then a tar archive. Prints the records of the reported paths that
 * exist, and exits with tar's status (a cut archive, a directory in the way).
 */
export const APPLY_BATCH = `cd -P -- "$1" || exit 1
list=$2
trap 'rm -f -- "$list"' EXIT
IFS= read -r n; [ "$n" -eq 0 ] || head -c "$n" | xargs -0 -r rm -f --
IFS= read -r n; [ "$n" -eq 0 ] || head -c "$n" | xargs -0 -r rmdir -- 2>/dev/null
IFS= read -r n; head -c "$n" > "$list" || exit 1
tar -xf - --no-same-owner -p --delay-directory-restore; status=$?
touch -- ../meta
xargs -0 -r sh -c 'find "$@" -maxdepth 0 -printf "$0" 2>/dev/null; exit 0' '${FIND_FORMAT}' < "$list"
exit $status`;

/**
 * Sends the listed regular files as a tar archive on stdout, then their records (taken after
 * the archive was written) on stderr: a file that changed meanwhile shows a new record and is
 * not taken. stdin: NUL-separated `./path`s.
 */
export const FETCH_FILES = `set -e
cd -P -- "$1"
list=$2
trap 'rm -f -- "$list"' EXIT
cat > "$list"
tar -cf - --format=posix --null --no-recursion -T "$list" 2>/dev/null || :
xargs -0 -r sh -c 'find "$@" -maxdepth 0 -printf "$0" 2>/dev/null; exit 0' '${FIND_FORMAT}' < "$list" >&2`;

/**
 * Lists the copies under a root (default as in ENSURE_COPY): the ssh user's uid and the
 * canonical root on the first line, then per copy: name NUL owner:meta-mtime NUL meta
 * (at most 4 KiB) NUL.
 */
export const LIST_COPIES = `root=\${1:-$HOME/.cache/pincer-ssh}
cd -P -- "$root" 2>/dev/null || { printf '%s\\n' "$(id -u)"; exit 0; }
printf '%s %s\\n' "$(id -u)" "$(pwd -P)"
for d in */; do
  d=\${d%/}
  [ -d "$d" ] && [ ! -L "$d" ] || continue
  printf '%s\\0%s\\0' "$d" "$(stat -c %u:%Y -- "$d/meta" 2>/dev/null || stat -c %u:%Y -- "$d")"
  head -c 4096 -- "$d/meta" 2>/dev/null || :
  printf '\\0'
done`;

/** Removes one copy, only if it is a real directory of the ssh user's directly under the root. */
export const REMOVE_COPY = `cd -P -- "$1" || exit 1
[ -d "$2" ] && [ ! -L "$2" ] && [ "$(stat -c %u -- "$2")" = "$(id -u)" ] || exit ${REFUSED_EXIT}
rm -rf -- "$2"`;

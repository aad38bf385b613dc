#!/usr/bin/env bash
# The fresh-clone check (issue 10.6): README's Quickstart command must pass in a clone of this
# checkout's HEAD with nothing beside it (no ../shared), as on a new user's machine. The command
# is read from README.md (the Quickstart's `npm ci && ...` line), so the check follows the README.
# It does not run `npm test` (too long for this check). A manual or CI check:
#   bash scripts/fresh-clone-check.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# The `npm ci` line of the first sh block under "## Quickstart".
cmd=$(awk '/^## Quickstart/ { q = 1 } q && /^```sh/ { f = 1; next } f && /^```/ { exit } f' "$repo/README.md" | grep -m1 '^npm ci' || true)
if [ -z "$cmd" ]; then
  echo "fresh-clone-check: README.md's Quickstart has no 'npm ci ...' command" >&2
  exit 2
fi

# A folder of its own, so the clone has no sibling at all (no ../shared, no ../main).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pincer-fresh-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git clone --quiet --no-hardlinks "$repo" "$tmp/pincer"
cd "$tmp/pincer"
echo "fresh-clone-check: $(git rev-parse --short HEAD) in $tmp/pincer, nothing beside it; running: $cmd"
# A clean environment for pincer itself: no config or state from this shell.
if ! env -u PINCER_CONFIG -u PINCER_STATE_DIR -u PINCER_BUILT bash -c "$cmd"; then
  echo "fresh-clone-check: FAILED: the Quickstart command does not pass in a fresh clone" >&2
  exit 1
fi
echo "fresh-clone-check: ok"

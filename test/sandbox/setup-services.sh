#!/usr/bin/env bash
# Starts the real services the sandbox tests run against: a Docker engine (no bridge
# network, image pincer-test:busybox) and sshd on 127.0.0.1:2222. Idempotent; needs root
# (it installs Debian's docker.io, busybox-static, openssh-server, bubblewrap and runsc when missing).
# Prints the PINCER_SSH_* assignments last, so CI can: eval "$(bash test/sandbox/setup-services.sh | tail -1)"
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scripts="${PINCER_SERVICE_SCRIPTS:-$here/../../scripts/services}"
bash "$scripts/install-sandbox-tools.sh" >&2
bash "$scripts/start-docker.sh" >&2
bash "$scripts/start-sshd.sh" | tail -1

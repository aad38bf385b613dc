#!/usr/bin/env bash
# Installs what the confinement tests run for real: bubblewrap (plugin and exec sandboxes) and
# gVisor's runsc registered as the Docker runtime "runsc" (the docker backend's `runtime`).
# Idempotent; needs root. Run before start-docker.sh; a running dockerd reloads its runtimes
# on SIGHUP when this script had to register runsc.
set -euo pipefail

need_install=()
command -v bwrap >/dev/null 2>&1 || need_install+=(bubblewrap)
command -v runsc >/dev/null 2>&1 || need_install+=(runsc)
if [ ${#need_install[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${need_install[@]}" >/dev/null
fi

config=/etc/docker/daemon.json
runsc="$(command -v runsc)"
if ! grep -q '"runsc"' "$config" 2>/dev/null; then
  mkdir -p /etc/docker
  node -e '
    const fs = require("fs");
    const [file, runsc] = process.argv.slice(1);
    const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    config.runtimes = { ...config.runtimes, runsc: { path: runsc, runtimeArgs: ["--network=none"] } };
    fs.writeFileSync(file, JSON.stringify(config));
  ' "$config" "$runsc"
  pid="$(pgrep -x dockerd || true)"
  [ -z "$pid" ] || kill -HUP "$pid"
fi

echo "sandbox tools ready: $(bwrap --version), runsc $("$runsc" --version | head -1)"

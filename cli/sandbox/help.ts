/** `pincer sandbox --help`. */
export const SANDBOX_HELP = `Usage: pincer sandbox <subcommand> [flags]

Subcommands:
  list                                 every sandbox container of this config: name, scope key,
                                       agent, image, state, created, last used, and whether it
                                       runs the current config
  recreate --session S | --agent A | --all
                                       remove the selected containers; each is created fresh
                                       (with the current config) on its next use
  prune [--idle-hours N] [--max-age-days N]
                                       remove containers idle longer than N hours or older than
                                       N days (0 disables a rule; defaults: the sandbox-docker
                                       plugin's prune settings, else 24 hours and 7 days); a
                                       container with a command running is never removed
  check [--agent A]                    self-test each configured backend, failing closed:
                                       docker (settings pass the security validation, engine
                                       reachable, image present, root and skill paths read-only
                                       in a probe container), ssh (connect, host key trusted,
                                       authenticated)
  image build [--tag T] [--file F]     build the sandbox image from the Dockerfile Pincer ships
                                       (or F), tagged T (default pincer-sandbox:bookworm-slim),
                                       with the engine's build output on stderr

list, recreate and prune act on the Docker engine ($DOCKER_HOST, else the local socket) and
only on this config's own containers: those labelled with its deployment id (the docker
plugin's deploymentId setting, default "default") and named exactly as the config names them.
Docker settings are the sandbox-docker plugin entry's settings merged key by key with
agents.defaults.sandbox.docker and the agent's own sandbox.docker. "Last used" comes from the
plugin's registry (registryPath, else containers.json in the plugin's data directory under
$PINCER_STATE_DIR, default ~/.pincer/state); without one, prune measures idleness from creation.
prune also removes the ssh backend's remote workspace copies that no running session holds and
that are idle or old past the same rule.

Exit status: 0 on success; 1 when the engine is unreachable, the config is invalid, or a
check or build fails; 2 on a usage error.

Options:
  -s, --session S      recreate: the session (scope key) whose container to remove
  -a, --agent A        recreate: that agent's containers; check: that agent's backend and settings
      --all            recreate: every container of this config
      --idle-hours N   prune: idle threshold in hours (fractions allowed)
      --max-age-days N prune: age threshold in days
  -t, --tag T          image build: the image name to build
  -f, --file F         image build: the Dockerfile (its folder is the build context)
  -c, --config F       config file (else $PINCER_CONFIG, ./pincer.config.json, embedded default)
      --json           machine-readable output`;

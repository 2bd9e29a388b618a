#!/usr/bin/env bash
# Compose for the Docker recipe's test (test/e2e/docker.e2e.ts): Debian's `docker-compose`, whose `config` reads
# and checks a compose file without a Docker engine (none runs on these machines). Installs it with apt-get when it
# is missing (needs root, as in CI containers); prints its path.
set -euo pipefail

if ! command -v docker-compose >/dev/null 2>&1; then
  echo "[provision] docker-compose not found: installing Debian's docker-compose with apt-get (for the Docker recipe's test)" >&2
  if [ "$(id -u)" != "0" ]; then
    echo "[provision] cannot install docker-compose: not root. Install it yourself (sudo apt-get install -y docker-compose)" >&2
    echo "[provision] or point PROSPECTING_DOCKER_COMPOSE at a docker-compose executable." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends docker-compose >&2; then
    apt-get update >&2
    apt-get install -y --no-install-recommends docker-compose >&2
  fi
fi
path="$(command -v docker-compose)"
echo "[provision] compose: $("$path" version --short 2>/dev/null | head -n 1)" >&2
echo "$path"

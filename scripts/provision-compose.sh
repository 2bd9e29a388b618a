#!/usr/bin/env bash
# Compose for the Docker recipe's test (test/e2e/docker.e2e.ts): Debian's `docker-compose`, whose `config` reads
# and checks a compose file without a Docker engine (none runs on these machines). Installs it with apt-get when it
# is missing; prints its path.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

ensure_debian_command docker-compose docker-compose "for the Docker recipe's test" PROSPECTING_DOCKER_COMPOSE
path="$(command -v docker-compose)"
echo "[provision] compose: $("$path" version --short 2>/dev/null | head -n 1)" >&2
echo "$path"

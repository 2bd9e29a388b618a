#!/usr/bin/env bash
# Installs what n8n's queue mode needs besides n8n: PostgreSQL (its database) and Redis (its job queue), from
# Debian packages, when they are missing. Installs only: the demo, the end-to-end suite and the benchmark start
# their own short-lived servers on loopback (scripts/lib/queue-services.ts), never the system services.
# Prints, as its last line, the folder of PostgreSQL's server binaries.
set -euo pipefail

say() { printf '[provision] %s\n' "$*" >&2; }

postgres_bin_dir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/postgres" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
postgres_bin_dir >/dev/null || missing+=(postgresql)

if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "Queue mode needs ${missing[*]}, and this machine has no apt-get: install them with its package manager."
    exit 1
  fi
  sudo_cmd=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "Installing ${missing[*]} needs root (or sudo)."; exit 1; }
    sudo_cmd=(sudo)
  fi
  say "Installing ${missing[*]} (Debian packages, first time only)"
  started=$SECONDS
  "${sudo_cmd[@]}" apt-get update >&2
  # policy-rc.d-less containers may try to start the system services; they are not used (each run starts its own).
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2
  say "Installed ${missing[*]} in $((SECONDS - started)) s"
fi

dir="$(postgres_bin_dir)" || { say "PostgreSQL's server binaries were not found under /usr/lib/postgresql/*/bin"; exit 1; }
say "Queue mode: $(redis-server --version | cut -d' ' -f1-3), PostgreSQL $("$dir/postgres" --version | awk '{print $3}')"
echo "$dir"

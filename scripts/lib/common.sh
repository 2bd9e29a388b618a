# Shared by demo.sh and e2e.sh: build, provisioning, and a trap that ends every n8n this run started.
# n8n runs in its own process group; its pid files live in $PROSPECTING_PID_DIR.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REPO_ROOT"

PROSPECTING_PID_DIR="$(mktemp -d "${TMPDIR:-/tmp}/n8n-nodes-prospecting-pids.XXXXXX")"
export PROSPECTING_PID_DIR

stop_started_processes() {
  local file pid
  for file in "$PROSPECTING_PID_DIR"/*.pid; do
    [ -e "$file" ] || continue
    pid="$(cat "$file")"
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM -- "-$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -KILL -- "-$pid" 2>/dev/null || true
    fi
    rm -f "$file"
  done
  rmdir "$PROSPECTING_PID_DIR" 2>/dev/null || true
}
trap stop_started_processes EXIT

build_package() {
  echo "[build] npm run build" >&2
  npm run --silent build >&2
}

# The n8n versions of scripts/lib/n8n-versions.txt (or of N8N_VERSIONS when set), space-separated.
n8n_versions() {
  if [ -n "${N8N_VERSIONS:-}" ]; then echo "$N8N_VERSIONS"; return; fi
  sed -e 's/#.*//' "$REPO_ROOT/scripts/lib/n8n-versions.txt" | xargs
}

# Sets PROSPECTING_N8N_RUNTIME to the cache folder holding Node 24 and n8n (installed the first time only).
# Provisions n8n $1, else $N8N_VERSION, else the first version of scripts/lib/n8n-versions.txt.
provision_n8n() {
  local out version="${1:-${N8N_VERSION:-}}"
  [ -n "$version" ] || version="$(n8n_versions | cut -d' ' -f1)"
  out="$(N8N_VERSION="$version" bash "$REPO_ROOT/scripts/provision-n8n.sh")" || exit 1
  PROSPECTING_N8N_RUNTIME="$(printf '%s\n' "$out" | tail -n 1)"
  export PROSPECTING_N8N_RUNTIME
}

# Sets the variable $1 to the path the provision script $2 prints last (it installs the tool the first time only),
# unless the variable is set already: PROSPECTING_CHROMIUM, Debian's chromium, for the browser tests;
# PROSPECTING_DOCKER_COMPOSE, Debian's docker-compose, whose `config` checks a compose file without a Docker engine.
provision_tool() {
  local variable="$1" script="$2" out
  if [ -n "${!variable:-}" ]; then return; fi
  out="$(bash "$REPO_ROOT/scripts/$script")" || exit 1
  printf -v "$variable" '%s' "$(printf '%s\n' "$out" | tail -n 1)"
  export "$variable"
}
provision_browser() { provision_tool PROSPECTING_CHROMIUM provision-browser.sh; }
provision_compose() { provision_tool PROSPECTING_DOCKER_COMPOSE provision-compose.sh; }

TS_NODE="$REPO_ROOT/node_modules/.bin/ts-node"

# Runs a command as a child and passes INT/TERM on to it, so that a signal sent to this script alone (a CI timeout,
# `kill <pid>`) also ends the child, and the EXIT trap then stops whatever n8n it left. Sets CHILD_STATUS.
run_child() {
  "$@" &
  local child=$!
  trap 'kill -TERM "$child" 2>/dev/null || true' INT TERM
  CHILD_STATUS=0
  while :; do
    if wait "$child"; then CHILD_STATUS=0; else CHILD_STATUS=$?; fi
    kill -0 "$child" 2>/dev/null || break
  done
  trap - INT TERM
}

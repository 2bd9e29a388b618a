#!/usr/bin/env bash
# npm run test:e2e: the package in a real n8n against the sandbox (test/e2e, own jest config).
# Builds, then for each n8n version of scripts/lib/n8n-versions.txt (or of N8N_VERSIONS, e.g. N8N_VERSIONS=2.41.1):
# provisions it the first time, runs the suite on one n8n process (every file but queue-mode.e2e.ts), then the
# queue-mode suite (main, webhook processor, workers on PostgreSQL and Redis), each with a fresh user folder and
# sandbox. Debian's chromium (browser tests) and docker-compose (the Docker recipe) are installed the first time.
# Fails when any pass fails. It writes nothing in the repository: run records and the README's
# compatibility table are written only by `npm run release:compat` (scripts/release/compat.sh), which sets
# PROSPECTING_E2E_RECORD_DIR for a whole run.
# Arguments are jest's (test files, -t); given arguments, only the passes with matching files run.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

started=$SECONDS
build_package
provision_browser
provision_compose
status=0
summary=()
QUEUE_SUITE='queue-mode\.e2e\.ts$'
NOT_QUEUE_SUITE='^(?!.*queue-mode\.e2e\.ts$)'
# Only a whole run is recorded (the compatibility table speaks of the whole suite).
record_dir="${PROSPECTING_E2E_RECORD_DIR:-}"
if [ -n "$record_dir" ] && [ "$#" != 0 ]; then
  echo "[e2e] a recorded run is a whole run: give no test files or options with PROSPECTING_E2E_RECORD_DIR" >&2
  exit 2
fi

run_pass() { # <version> <mode> <jest arguments...>
  local version="$1" mode="$2" pass_started=$SECONDS
  shift 2
  echo "[e2e] n8n $version ($mode)" >&2
  N8N_VERSION="$version" PROSPECTING_E2E_MODE="$mode" PROSPECTING_E2E_RECORD_DIR="$record_dir" \
    run_child "$REPO_ROOT/node_modules/.bin/jest" --config "$REPO_ROOT/test/e2e/jest.config.js" --runInBand \
    --passWithNoTests "$@"
  summary+=("n8n $version ($mode): $(if [ "$CHILD_STATUS" = 0 ]; then echo passed; else echo "FAILED (exit $CHILD_STATUS)"; fi) in $((SECONDS - pass_started)) s")
  [ "$CHILD_STATUS" = 0 ] || status=$CHILD_STATUS
}

versions="$(n8n_versions)"
# Screenshots (npm run screenshots) are of the current n8n, the first version listed.
[ "${PROSPECTING_SCREENSHOTS:-}" = true ] && versions="${versions%% *}"
for version in $versions; do
  provision_n8n "$version"
  # The ignore pattern goes last: jest takes the words after it as more patterns, test files given included.
  run_pass "$version" single "$@" --testPathIgnorePatterns "$QUEUE_SUITE"
  run_pass "$version" queue "$@" --testPathIgnorePatterns "$NOT_QUEUE_SUITE"
done
for line in "${summary[@]}"; do echo "[e2e] $line" >&2; done
echo "[e2e] finished in $((SECONDS - started)) s (exit $status)" >&2
exit "$status"

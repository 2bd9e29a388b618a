#!/usr/bin/env bash
# npm run test:e2e: the package in a real n8n against the sandbox (test/e2e, own jest config).
# Builds, then for each n8n version of scripts/lib/n8n-versions.txt (or of N8N_VERSIONS, e.g. N8N_VERSIONS=2.41.1):
# provisions it the first time and runs the suite with a fresh n8n user folder and sandbox. Each run writes
# test/e2e/results/<version>-single.json; the README's compatibility table is regenerated from those files at the end.
# Fails when the suite fails on any version.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

started=$SECONDS
build_package
provision_browser
status=0
summary=()
for version in $(n8n_versions); do
  version_started=$SECONDS
  provision_n8n "$version"
  echo "[e2e] n8n $version (single process)" >&2
  # A run given test files or options is not recorded in test/e2e/results (the table speaks of whole runs).
  export N8N_VERSION="$version" PROSPECTING_E2E_MODE=single PROSPECTING_E2E_RECORD="$([ "$#" = 0 ] && echo 1 || echo 0)"
  run_child "$REPO_ROOT/node_modules/.bin/jest" --config "$REPO_ROOT/test/e2e/jest.config.js" --runInBand "$@"
  summary+=("n8n $version: $(if [ "$CHILD_STATUS" = 0 ]; then echo passed; else echo "FAILED (exit $CHILD_STATUS)"; fi) in $((SECONDS - version_started)) s")
  [ "$CHILD_STATUS" = 0 ] || status=$CHILD_STATUS
done
"$TS_NODE" --transpile-only "$REPO_ROOT/scripts/compat-table.ts" >&2 || status=1
for line in "${summary[@]}"; do echo "[e2e] $line" >&2; done
echo "[e2e] finished in $((SECONDS - started)) s (exit $status)" >&2
exit "$status"

#!/usr/bin/env bash
# npm run test:e2e: the package in a real n8n against the sandbox (test/e2e, own jest config).
# Builds, provisions n8n the first time, then runs the suite with a fresh n8n user folder and sandbox.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

started=$SECONDS
build_package
provision_n8n
provision_browser
run_child "$REPO_ROOT/node_modules/.bin/jest" --config "$REPO_ROOT/test/e2e/jest.config.js" --runInBand "$@"
echo "[e2e] finished in $((SECONDS - started)) s (exit $CHILD_STATUS)" >&2
exit "$CHILD_STATUS"

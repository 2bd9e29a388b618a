#!/usr/bin/env bash
# npm run demo [-- --keep] [-- --port 5678 --sandbox-port 4010] [-- --queue]
# Builds the package, provisions n8n the first time, and runs scripts/demo.ts (Ctrl-C stops everything).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

build_package
provision_n8n
# Not exec'd: the EXIT trap must still run after the demo ends, whatever way it ends.
run_child "$TS_NODE" --transpile-only "$REPO_ROOT/scripts/demo.ts" "$@"
exit "$CHILD_STATUS"

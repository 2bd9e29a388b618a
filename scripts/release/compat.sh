#!/usr/bin/env bash
# npm run release:compat, before a release: the whole end-to-end suite on every n8n version of
# scripts/lib/n8n-versions.txt (or of N8N_VERSIONS), each run recorded in test/e2e/results/<version>-<mode>.json,
# then the README's compatibility table regenerated from those records. Commit both with the release.
# `npm run test:e2e` alone records nothing and leaves the working tree as it was.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$#" != 0 ]; then
  echo "[compat] the table speaks of whole runs: npm run release:compat takes no test files or options" >&2
  exit 2
fi
status=0
PROSPECTING_E2E_RECORD_DIR="$PWD/test/e2e/results" bash scripts/e2e.sh || status=$?
# Failures are recorded too: the table then shows them.
node_modules/.bin/ts-node --transpile-only scripts/compat-table.ts || status=1
exit "$status"

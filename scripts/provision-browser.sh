#!/usr/bin/env bash
# The browser the end-to-end tests drive: Debian's `chromium` (playwright-core never downloads one).
# Installs it with apt-get when it is missing (needs root, as in CI containers); prints its path.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

ensure_debian_command chromium chromium "for the browser tests" PROSPECTING_CHROMIUM
path="$(command -v chromium)"
echo "[provision] browser: $("$path" --version 2>/dev/null | head -n 1)" >&2
echo "$path"

#!/usr/bin/env bash
# The browser the end-to-end tests drive: Debian's `chromium` (playwright-core never downloads one).
# Installs it with apt-get when it is missing (needs root, as in CI containers); prints its path.
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1; then
  echo "[provision] chromium not found: installing Debian's chromium with apt-get (for the browser tests)" >&2
  if [ "$(id -u)" != "0" ]; then
    echo "[provision] cannot install chromium: not root. Install it yourself (sudo apt-get install -y chromium)" >&2
    echo "[provision] or point PROSPECTING_CHROMIUM at a Chromium/Chrome executable." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends chromium >&2; then
    apt-get update >&2
    apt-get install -y --no-install-recommends chromium >&2
  fi
fi
path="$(command -v chromium)"
echo "[provision] browser: $("$path" --version 2>/dev/null | head -n 1)" >&2
echo "$path"

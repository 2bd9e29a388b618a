# Sourced by the provision scripts: installs a Debian package when its command is missing (needs root, as in CI
# containers), or says how to install it and fails.
#   ensure_debian_command <command> <package> <what it is for> <variable that may point at another executable>
ensure_debian_command() {
  local command="$1" package="$2" purpose="$3" variable="$4"
  command -v "$command" >/dev/null 2>&1 && return 0
  echo "[provision] $command not found: installing Debian's $package with apt-get ($purpose)" >&2
  if [ "$(id -u)" != "0" ]; then
    echo "[provision] cannot install $package: not root. Install it yourself (sudo apt-get install -y $package)" >&2
    echo "[provision] or point $variable at another executable." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends "$package" >&2; then
    apt-get update >&2
    apt-get install -y --no-install-recommends "$package" >&2
  fi
}

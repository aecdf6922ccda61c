# Shared by the scripts in this directory (source it; not executable on its own).

# G1 (see docs of install-tf-cli.sh): a TF_CLI_CONFIG_FILE naming a missing file makes
# OpenTofu 1.12 print a warning on stdout, which breaks every tool parsing its output.
[ -f "${TF_CLI_CONFIG_FILE:-/nonexistent}" ] || unset TF_CLI_CONFIG_FILE
# Never let a CLI phone home for update checks.
export CHECKPOINT_DISABLE=1

script_start=$(date +%s)

# step prints a visible section header with the elapsed time of the calling script.
step() { printf '\n==> [%ss] %s\n' "$(( $(date +%s) - script_start ))" "$*"; }

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# cli_version prints a CLI's own name and version, e.g. "OpenTofu v1.12.6".
cli_version() { "$1" version | head -n1; }

# install_cli KIND prints the absolute path of the cached (or freshly built) CLI.
install_cli() { "$(dirname "${BASH_SOURCE[0]}")/install-tf-cli.sh" "$1" | tail -n1; }

# with_progress LABEL CMD... runs CMD, printing a line every 20 s while it runs, so long
# builds never leave a silent terminal.
with_progress() {
  local label="$1" start ticker rc=0
  shift
  start=$(date +%s)
  ( while sleep 20; do printf '  ... still %s (%ss)\n' "$label" "$(( $(date +%s) - start ))" >&2; done ) &
  ticker=$!
  "$@" || rc=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return "$rc"
}

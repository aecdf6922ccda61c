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

# local_provider_mirror DIR builds the provider into a filesystem mirror under DIR, writes
# DIR/cli.tfrc (install astra-control/astra, under both registries' addresses, from that
# mirror; every other provider from its registry, as usual) and exports TF_CLI_CONFIG_FILE,
# so a plain `init` works as it would with the registry. The README documents this block
# (scripts/local-mirror.sh, `make local-mirror`). The binary is built at a fixed path under bin/ first, so
# go build skips the link when nothing changed (a few seconds of CPU per caller).
local_provider_mirror() {
  local dir="$1" version=0.0.1 target host bin
  target="$(go env GOOS)_$(go env GOARCH)"
  bin="bin/local-mirror/terraform-provider-astra_v$version"
  go build -ldflags "-X main.version=$version-local" -o "$bin" .
  for host in registry.opentofu.org registry.terraform.io; do
    mkdir -p "$dir/mirror/$host/astra-control/astra/$version/$target"
    cp "$bin" "$dir/mirror/$host/astra-control/astra/$version/$target/"
  done
  cat >"$dir/cli.tfrc" <<CONFIG
provider_installation {
  filesystem_mirror {
    path    = "$dir/mirror"
    include = ["registry.opentofu.org/astra-control/astra", "registry.terraform.io/astra-control/astra"]
  }
  direct {
    exclude = ["registry.opentofu.org/astra-control/astra", "registry.terraform.io/astra-control/astra"]
  }
}
CONFIG
  export TF_CLI_CONFIG_FILE="$dir/cli.tfrc"
}

# export_sim_env OUT PID ERR waits until the astra-sim started as PID has printed its
# ASTRA_NAME=value lines (possibly with "export ") to OUT, then exports them, echoing each
# with the token hidden. Dies, showing ERR, when the simulator exits or prints nothing in 20 s.
export_sim_env() {
  local out="$1" pid="$2" err="$3" line name value
  for _ in $(seq 1 200); do
    grep -q '^\(export \)\?ASTRA_API_TOKEN=' "$out" && break
    kill -0 "$pid" 2>/dev/null || { cat "$out" "$err" >&2; die "astra-sim exited"; }
    sleep 0.1
  done
  grep -q '^\(export \)\?ASTRA_API_TOKEN=' "$out" || { cat "$err" >&2; die "astra-sim printed no ASTRA_* variables within 20s"; }
  while IFS= read -r line; do
    line="${line#export }"
    name="${line%%=*}" value="${line#*=}"
    value="${value#[\"\']}" value="${value%[\"\']}"
    export "$name=$value"
    case "$name" in *TOKEN*) echo "$name=(hidden)" ;; *) echo "$name=$value" ;; esac
  done < <(grep -E '^(export )?ASTRA_[A-Z0-9_]+=' "$out")
}

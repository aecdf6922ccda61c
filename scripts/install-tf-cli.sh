#!/usr/bin/env bash
# Builds a Terraform-compatible CLI from its Go module (the only source reachable offline)
# and caches it outside the work tree. Prints progress on stderr and the binary's absolute
# path as the last line of stdout. Idempotent: a cached binary reporting the right version
# is reused in well under a second.
#
#   scripts/install-tf-cli.sh tofu        # OpenTofu $TOFU_VERSION (default 1.12.6)
#   scripts/install-tf-cli.sh terraform   # Terraform $TERRAFORM_VERSION (default 1.5.7, last MPL release)
set -euo pipefail

kind="${1:-tofu}"
case "$kind" in
  tofu)      version="${TOFU_VERSION:-1.12.6}";      module="github.com/opentofu/opentofu" ;;
  terraform) version="${TERRAFORM_VERSION:-1.5.7}"; module="github.com/hashicorp/terraform" ;;
  *) echo "usage: $0 tofu|terraform" >&2; exit 2 ;;
esac
if [ "$kind" = terraform ]; then
  # Later Terraform releases are BUSL-licensed and cannot be built from the proxy anyway.
  case "$version" in 1.5.*|1.[0-4].*) ;; *) echo "refusing Terraform $version: only MPL releases (<= 1.5.7) are used here" >&2; exit 2 ;; esac
fi

# G1: a TF_CLI_CONFIG_FILE naming a missing file makes tofu 1.12 print a warning on stdout.
[ -f "${TF_CLI_CONFIG_FILE:-/nonexistent}" ] || unset TF_CLI_CONFIG_FILE
export CHECKPOINT_DISABLE=1 GOFLAGS=-buildvcs=false CGO_ENABLED=0

platform="$(go env GOOS)_$(go env GOARCH)"
cache="${TF_CLI_CACHE:-$HOME/.cache/tf-cli}"
dir="$cache/$kind-$version-$platform"
bin="$dir/$kind"

log() { printf '[install-tf-cli] %s\n' "$*" >&2; }

reports_version() {
  # Capture first: `cli | grep -q` can fail under pipefail when grep exits early (SIGPIPE).
  local out
  [ -x "$1" ] && out="$("$1" version -json 2>/dev/null)" &&
    [[ "$out" =~ \"terraform_version\":\ *\"${version//./\\.}\" ]]
}

if reports_version "$bin"; then
  log "$kind $version: cached at $bin"
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
# One build per kind+version at a time: a second caller (another shell, a parallel CI job)
# waits for the first and then reuses its binary instead of compiling a duplicate.
exec 9>"$cache/.lock-$kind-$version-$platform"
if ! flock -n 9; then
  log "$kind $version: another build is running; waiting for it"
  flock 9
fi
if reports_version "$bin"; then
  log "$kind $version: cached at $bin (built by another run)"
  echo "$bin"
  exit 0
fi

tmp="$(mktemp -d "$cache/.build-$kind-$version.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
log "$kind $version: not cached; building from the Go module proxy (3-6 minutes cold, once per machine)"

# Print elapsed time every 20 s so nobody stares at a silent terminal.
( while sleep 20; do log "  ... still building $kind $version ($(( $(date +%s) - start ))s)"; done ) &
ticker=$!
trap 'kill $ticker 2>/dev/null || true; rm -rf "$tmp"' EXIT

log "downloading $module@v$version"
moddir="$(cd "$tmp" && go mod download -json "$module@v$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -d "$moddir" ] || { log "module download failed"; exit 1; }

log "compiling (module dir $moddir)"
case "$kind" in
  tofu)
    # OpenTofu's go.mod has replace directives, so `go install pkg@v` is refused: build in its module dir.
    (cd "$moddir" && go build -mod=mod -trimpath \
      -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
      -o "$tmp/$kind" ./cmd/tofu)
    ;;
  terraform)
    (cd "$moddir" && go build -mod=mod -trimpath -ldflags "-s -w" -o "$tmp/$kind" .)
    ;;
esac

reports_version "$tmp/$kind" || { log "built binary does not report version $version:"; "$tmp/$kind" version >&2 || true; exit 1; }
mkdir -p "$dir"
mv -f "$tmp/$kind" "$bin.new" && mv -f "$bin.new" "$bin"
log "$kind $version: built in $(( $(date +%s) - start ))s -> $bin"
echo "$bin"

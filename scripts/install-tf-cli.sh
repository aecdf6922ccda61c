#!/usr/bin/env bash
# Builds a Terraform-compatible CLI from its Go module (the only source reachable offline)
# and caches it outside the work tree. Prints progress on stderr and the binary's absolute
# path as the last line of stdout. Idempotent: a cached binary reporting the right version
# is reused in well under a second.
#
#   scripts/install-tf-cli.sh tofu              # OpenTofu $TOFU_VERSION (default 1.12.6)
#   scripts/install-tf-cli.sh terraform         # Terraform $TERRAFORM_VERSION (default 1.5.7, last MPL release, oldest supported)
#   scripts/install-tf-cli.sh terraform-latest  # Terraform 1.16.4, the newest the Go proxy serves (a test tool, see below)
#
# Terraform after 1.5.7 is under the BUSL. The one pinned newest release is built here as a
# test tool only, like the other CLIs: it lives in the cache, never in the repository, and
# nothing of it is shipped, vendored or copied. Other post-1.5 releases are refused so the
# matrix stays exactly "oldest supported + newest".
set -euo pipefail

# The newest Terraform the Go module proxy serves; bump it deliberately (and re-run the matrix).
terraform_latest=1.16.4

kind="${1:-tofu}"
case "$kind" in
  tofu)             version="${TOFU_VERSION:-1.12.6}";       module="github.com/opentofu/opentofu" ;;
  terraform)        version="${TERRAFORM_VERSION:-1.5.7}";   module="github.com/hashicorp/terraform" ;;
  terraform-latest) version="$terraform_latest"; kind=terraform; module="github.com/hashicorp/terraform" ;;
  *) echo "usage: $0 tofu|terraform|terraform-latest" >&2; exit 2 ;;
esac
if [ "$kind" = terraform ]; then
  # 1.5.x is MPL (the oldest line we support). Later releases are BUSL: only the pinned
  # newest one is accepted, as a test tool, so no other BUSL build lands in the cache.
  case "$version" in
    1.5.*|"$terraform_latest") ;;
    *) echo "refusing Terraform $version: only 1.5.x (MPL, oldest supported) and $terraform_latest (BUSL, the pinned newest, built as a test tool only) are used here" >&2; exit 2 ;;
  esac
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

# Every CLI is built without its remote-state backends (azurerm, consul, cos, gcs,
# kubernetes, oss, pg, s3, oci): the tests here only use local state, and those backends
# are a fifth of OpenTofu's packages (Kubernetes' client among them), so leaving them out
# cuts a cold build's time. Since Terraform 1.9 they are also nested Go modules that the
# proxy's module zip does not contain, so a plain build would fail on their replace
# directives. `local`, `remote`, `cloud`, `http` and `inmem` stay. The build runs in a
# writable copy of the module: OpenTofu's go.mod has replace directives, so `go install
# pkg@v` is refused anyway.
dropped="azure consul cos gcs kubernetes oci oss pg s3"
log "$kind $version: leaving out the remote-state backends (${dropped// /, }); tests use local state"
src="$tmp/src"
cp -r "$moddir" "$src" && chmod -R u+w "$src"
init="$src/internal/backend/init/init.go"
for b in $dropped; do
  # import line: backendXxx "…/internal/backend/remote-state/<b>"
  sed -i "\#internal/backend/remote-state/$b\"#d" "$init"
done
# map entries: "azurerm": func(…) … backendAzure.New(…) … (azure's key is azurerm)
sed -i -E '/^[[:space:]]*"(azurerm|consul|cos|gcs|kubernetes|oss|pg|s3|oci)":[[:space:]]*func\(/d' "$init"
for b in $dropped; do
  if grep -q "remote-state/$b\"" "$init"; then log "could not drop backend $b from $init"; exit 1; fi
done
if [ "$kind" = terraform ]; then
  sed -i -E '/^replace github\.com\/hashicorp\/terraform\/internal\/.* => \.\/internal\//d;
             /^[[:space:]]*github\.com\/hashicorp\/terraform\/internal\/[^ ]+ v0\.0\.0-/d' "$src/go.mod"
fi
case "$kind" in
  tofu)      pkg=./cmd/tofu; ldflags="-s -w -X github.com/opentofu/opentofu/version.dev=no" ;;
  terraform) pkg=.;          ldflags="-s -w -X github.com/hashicorp/terraform/version.dev=no" ;;
esac
log "compiling the trimmed copy ($src)"
(cd "$src" && go build -mod=mod -trimpath -ldflags "$ldflags" -o "$tmp/$kind" "$pkg")

reports_version "$tmp/$kind" || { log "built binary does not report version $version:"; "$tmp/$kind" version >&2 || true; exit 1; }
mkdir -p "$dir"
mv -f "$tmp/$kind" "$bin.new" && mv -f "$bin.new" "$bin"
log "$kind $version: built in $(( $(date +%s) - start ))s -> $bin"
echo "$bin"

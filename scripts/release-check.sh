#!/usr/bin/env bash
# Checks .goreleaser.yml and builds a snapshot release for this platform, offline
# (`make release-check`). goreleaser is built once from the Go module proxy
# (v2.16.0: later versions need Go 1.27 or a module the proxy refuses) into TOOLS_DIR.
# Runs in a throw-away clone, because `goreleaser check` wants a git remote.
#
#   scripts/release-check.sh [GORELEASER_VERSION] [TOOLS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

version="${1:-v2.16.0}"
tools="${2:-$HOME/.cache/terraform-provider-astra/tools}"
bin="$tools/goreleaser-$version"
if [ ! -x "$bin" ]; then
  step "build goreleaser $version from the Go module proxy (about 3.5 minutes, once)"
  mkdir -p "$tools/.gobin"
  (cd "$tools" && GOBIN="$tools/.gobin" go install "github.com/goreleaser/goreleaser/v2@$version")
  mv "$tools/.gobin/goreleaser" "$bin"
fi

clone="$(mktemp -d)"
trap 'rm -rf "$clone"' EXIT
git clone -q . "$clone"
cd "$clone"
git remote set-url origin https://github.com/astra-control/terraform-provider-astra.git  # parsed, never contacted

step "goreleaser check"
"$bin" check
step "goreleaser release --snapshot (this platform only)"
"$bin" release --snapshot --clean --skip=publish,sign --single-target
ls -l dist/*.zip dist/*SHA256SUMS dist/*manifest.json

#!/usr/bin/env bash
# Checks .goreleaser.yml and builds a snapshot release for this platform, offline
# (`make release-check`). goreleaser is built once from the Go module proxy by
# scripts/tools.sh. Runs in a throw-away clone of HEAD (commit first), because
# `goreleaser check` wants a git remote.
#
#   scripts/release-check.sh [GORELEASER_VERSION] [TOOLS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

bin="$(scripts/tools.sh goreleaser "${1:-v2.16.0}" "${2:-$HOME/.cache/terraform-provider-astra/tools}")"

clone="$(mktemp -d)"
trap 'rm -rf "$clone"' EXIT
git clone -q . "$clone"
cd "$clone"
git remote set-url origin https://github.com/astra-control/terraform-provider-astra.git  # parsed, never contacted

step "goreleaser check"
"$bin" check
# `release` has no --single-target: narrow the matrix to this platform in the clone's copy
# (the full matrix costs about 10 minutes of CPU on 2 cores).
sed -i -e "s/^\( *goos:\) \[.*\]$/\1 [$(go env GOOS)]/" -e "s/^\( *goarch:\) \[.*\]$/\1 [$(go env GOARCH)]/" .goreleaser.yml
step "goreleaser release --snapshot --skip=publish,sign ($(go env GOOS)/$(go env GOARCH) only)"
"$bin" release --snapshot --clean --skip=publish,sign
step "artifacts"
ls -l dist/*.zip dist/*SHA256SUMS
cat dist/*SHA256SUMS
# The registry needs the manifest listed in SHA256SUMS (it is uploaded next to it on release).
grep -q '_manifest\.json$' dist/*SHA256SUMS || die "SHA256SUMS does not list the registry manifest"
unzip -l dist/*.zip

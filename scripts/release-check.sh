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
step "goreleaser release --snapshot (this platform only)"
"$bin" release --snapshot --clean --skip=publish,sign --single-target
ls -l dist/*.zip dist/*SHA256SUMS dist/*manifest.json

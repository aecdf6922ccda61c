#!/usr/bin/env bash
# Builds the developer tools from the Go module proxy, once, into a cache outside the
# work tree, and prints the path of the one asked for (`make tools`, `make lint`).
#
#   scripts/tools.sh golangci-lint [VERSION] [TOOLS_DIR]   # default v2.15.0
#   scripts/tools.sh goreleaser [VERSION] [TOOLS_DIR]      # default v2.16.0 (later ones need
#                                                          # Go 1.27 or a module the proxy refuses)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

tool="${1:-}"
case "$tool" in
  golangci-lint) version="${2:-v2.15.0}" pkg="github.com/golangci/golangci-lint/v2/cmd/golangci-lint" ;;
  goreleaser) version="${2:-v2.16.0}" pkg="github.com/goreleaser/goreleaser/v2" ;;
  *) die "usage: $0 golangci-lint|goreleaser [VERSION] [TOOLS_DIR]" ;;
esac
tools="${3:-$HOME/.cache/terraform-provider-astra/tools}"
bin="$tools/$tool-$version"

if [ ! -x "$bin" ]; then
  echo "building $tool $version from the Go module proxy (3-4 minutes on 2 cores, once)" >&2
  mkdir -p "$tools"
  gobin="$(mktemp -d "$tools/.gobin.XXXXXX")"
  trap 'rm -rf "$gobin"' EXIT
  # Built outside the module, so go.mod is neither read nor changed.
  (cd "$gobin" && export GOBIN="$gobin" && with_progress "building $tool" go install "$pkg@$version")
  mv "$gobin/$tool" "$bin"
fi
ln -sfn "$(basename "$bin")" "$tools/$tool"
echo "$bin"

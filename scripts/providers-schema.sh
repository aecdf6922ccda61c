#!/usr/bin/env bash
# Dumps `providers schema -json` of this provider, using a locally built CLI and no registry.
#
#   scripts/providers-schema.sh CLI_BINARY OUT.json
#
# The provider is installed from a throw-away -plugin-dir under the address tfplugindocs
# looks up (registry.terraform.io/hashicorp/astra), which both tofu and terraform accept
# when the source is spelled out in full.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

[ $# -eq 2 ] || die "usage: $0 CLI_BINARY OUT.json"
cli="$1" out="$2"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
plugins="$work/plugins/registry.terraform.io/hashicorp/astra/0.0.1/$(go env GOOS)_$(go env GOARCH)"
mkdir -p "$plugins"
go build -o "$plugins/terraform-provider-astra" .
cat > "$work/main.tf" <<'HCL'
terraform {
  required_providers {
    astra = { source = "registry.terraform.io/hashicorp/astra" }
  }
}
HCL
"$cli" -chdir="$work" init -backend=false -input=false -no-color -plugin-dir="$work/plugins" >"$work/init.log" 2>&1 ||
  { cat "$work/init.log" >&2; die "$cli init failed"; }
"$cli" -chdir="$work" providers schema -json >"$out"

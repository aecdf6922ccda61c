#!/usr/bin/env bash
# Generates docs/ with tfplugindocs, offline: the schema comes from a locally built CLI
# (tfplugindocs would otherwise download Terraform).
#
#   scripts/docs.sh generate [CLI_BINARY]   # rewrite docs/
#   scripts/docs.sh check [CLI_BINARY]      # fail if docs/ differs from what generate would write;
#                                           # also runs tfplugindocs validate. Changes nothing.
# Without CLI_BINARY, the cached OpenTofu is used (built if missing). Always use the same CLI:
# the schema JSON differs between CLIs (Terraform 1.5.7 predates write-only attributes and
# drops them, so its docs lose the write-only notes). OpenTofu prints no list resources and
# no actions, which only Terraform 1.14 and later serve: their schemas come from the newest
# Terraform (LIST_CLI_BINARY, else the cached test build), merged into OpenTofu's, so their
# pages (docs/list-resources/, docs/actions/) are generated and drift-checked like the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 generate|check [CLI_BINARY]"
mode="$1" cli="${2:-}"
[ -n "$cli" ] || cli="$(install_cli tofu)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scripts/providers-schema.sh "$cli" "$work/schema.json"
list_cli="${LIST_CLI_BINARY:-$(install_cli terraform-latest)}"
scripts/providers-schema.sh "$list_cli" "$work/schema-list.json"
command -v jq >/dev/null || die "jq is needed to merge the schemas (Debian package jq)"
jq --slurpfile newer "$work/schema-list.json" '
  .provider_schemas |= with_entries(
    .key as $p
    | .value.list_resource_schemas = ($newer[0].provider_schemas[$p].list_resource_schemas // {})
    | .value.action_schemas = ($newer[0].provider_schemas[$p].action_schemas // {})
    | if .value.list_resource_schemas == {} then del(.value.list_resource_schemas) else . end
    | if .value.action_schemas == {} then del(.value.action_schemas) else . end)
' "$work/schema.json" >"$work/schema-merged.json"
mv "$work/schema-merged.json" "$work/schema.json"

tfplugindocs() { go tool tfplugindocs "$@" --provider-name astra --providers-schema "$work/schema.json"; }

case "$mode" in
  generate)
    tfplugindocs generate
    ;;
  check)
    # Render a copy of the doc sources so the work tree is left alone.
    mkdir -p "$work/tree/docs"
    cp -R templates examples "$work/tree/"
    [ ! -d docs ] || cp -R docs/. "$work/tree/docs/"
    tfplugindocs generate --provider-dir "$work/tree" >"$work/generate.log" 2>&1 ||
      { cat "$work/generate.log" >&2; die "tfplugindocs generate failed"; }
    if ! diff -ru docs "$work/tree/docs"; then
      die "docs/ is out of date: run 'make generate' and commit the result"
    fi
    tfplugindocs validate >"$work/validate.log" 2>&1 ||
      { cat "$work/validate.log" >&2; die "tfplugindocs validate failed"; }
    echo "docs/ is up to date"
    ;;
  *) die "usage: $0 generate|check [CLI_BINARY]" ;;
esac

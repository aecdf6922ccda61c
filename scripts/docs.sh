#!/usr/bin/env bash
# Generates docs/ with tfplugindocs, offline: the schema comes from a locally built CLI
# (tfplugindocs would otherwise download Terraform).
#
#   scripts/docs.sh generate [CLI_BINARY]   # rewrite docs/
#   scripts/docs.sh check [CLI_BINARY]      # fail if docs/ differs from what generate would write;
#                                           # also runs tfplugindocs validate. Changes nothing.
# Without CLI_BINARY, the cached OpenTofu is used (built if missing); the schemas of the
# actions and list resources, which only Terraform 1.14 and later print, always come from
# the cached Terraform 1.16.4 (built if missing), so their pages (docs/actions/,
# docs/list-resources/) are generated and drift-checked like the rest. Always use the same
# CLI: the schema JSON differs between CLIs (Terraform 1.5.7 predates write-only
# attributes and drops them, so its docs lose the write-only notes).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 generate|check [CLI_BINARY]"
mode="$1" cli="${2:-}"
[ -n "$cli" ] || cli="$(install_cli tofu)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scripts/providers-schema.sh "$cli" "$work/schema.json"
# OpenTofu prints neither actions nor list resources: their schemas come from Terraform
# 1.16.4 (NEWER_CLI names another Terraform 1.14+), merged into the first CLI's schema, so
# that every other page stays rendered from the one CLI.
newer_cli="${NEWER_CLI:-}"
[ -n "$newer_cli" ] || newer_cli="$(install_cli terraform-latest)"
scripts/providers-schema.sh "$newer_cli" "$work/newer-schema.json"
go run ./scripts/merge-newer-schemas "$work/schema.json" "$work/newer-schema.json"

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

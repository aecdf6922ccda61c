#!/usr/bin/env bash
# Runs every command of the guide docs/guides/adopting-existing-clusters.md, so it cannot rot
# (run by scripts/guide-test.sh, hence by `make guide-test` and `make test`): its ```sh
# blocks, in order, as one `bash -eu -o pipefail` script, in a scratch copy of
# examples/adopt-fleet, against a simulator whose private cloud holds what examples/complete
# creates (a credential, a cluster and its management), applied beforehand and then forgotten.
#
# The stand-ins: the registry is the provider mirror of the README ("Using a build before it
# is published"); `terraform` on PATH is OpenTofu (the cached CLI).
#
#   scripts/adopt-guide-test.sh [TOFU_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

guide=docs/guides/adopting-existing-clusters.md
[ -f "$guide" ] || die "$guide is missing: run 'make generate'"
tofu="${1:-$(install_cli tofu)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/astra-adopt-guide.XXXXXX")"
sim_pid=""
cleanup() {
  if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step "the guide's commands ($guide)"
awk -v guide="$guide" '
  /^[ \t]*```/ {
    if (!infence) {
      lang = $0; sub(/^[ \t]*```/, "", lang)
      if (lang !~ /^(sh|text|terraform|hcl)$/) { printf "%s:%d: fence \"%s\": use sh for commands (run by this test), text for output\n", guide, NR, lang > "/dev/stderr"; bad = 1; exit }
      infence = 1; run = (lang == "sh"); if (run) { blocks++; printf "# %s:%d\n", guide, NR }
    } else { infence = 0 }
    next
  }
  infence && run { sub(/^   /, ""); print }
  END { if (bad) exit 3; if (blocks < 1) { print "no sh blocks" > "/dev/stderr"; exit 4 } }
' "$guide" >"$work/guide.sh" || die "cannot extract the guide's commands"
echo "$(grep -c '^# docs/' "$work/guide.sh") sh blocks, $(grep -vc -e '^#' -e '^$' "$work/guide.sh") lines"

step "stand-ins: provider mirror, terraform = $(cli_version "$tofu"), simulator"
local_provider_mirror "$work/provider"
mkdir -p "$work/cli" "$work/existing"
ln -s "$tofu" "$work/cli/terraform"
go build -o "$work/astra-sim" ./internal/cmd/astra-sim
"$work/astra-sim" -release 24.02 -addr 127.0.0.1:0 -kubeconfig-out "$work/existing/kubeconfig.yaml" >"$work/sim.out" 2>"$work/sim.log" &
sim_pid=$!
export_sim_env "$work/sim.out" "$sim_pid" "$work/sim.log"
export TF_IN_AUTOMATION=1

step "the fleet to adopt: examples/complete applied, then its state thrown away"
cp examples/complete/*.tf "$work/existing/"
"$tofu" -chdir="$work/existing" init -input=false -no-color >/dev/null
"$tofu" -chdir="$work/existing" apply -input=false -no-color -auto-approve >/dev/null
rm -rf "$work/existing"

step "run them in a copy of examples/adopt-fleet"
cp -R examples/adopt-fleet "$work/adopt-fleet"
(
  cd "$work/adopt-fleet"
  export PATH="$work/cli:$PATH"
  # No terminal: a command that asks for approval reads end of file and fails.
  exec bash -eux -o pipefail "$work/guide.sh" </dev/null
) || die "a command of the guide failed: see above; fix $guide's template"
[ -s "$work/adopt-fleet/adopted/generated.tf" ] || die "the guide's -generate-config-out wrote nothing"
grep -q 'resource "astra_cluster"' "$work/adopt-fleet/adopted/generated.tf" || die "the generated configuration adopts no cluster"
echo "every command of the guide ran"

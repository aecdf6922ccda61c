#!/usr/bin/env bash
# The provider's main job, end to end and offline (`make demo`):
#   build the provider, start the Astra Control simulator, install the provider into a
#   CLI from a local plugin directory (no registry), init/plan/apply examples/complete
#   (a kubeconfig credential, a cluster, a managed cluster with a storage class, an app
#   and its hourly and daily protection policies) without its baseline backup, check that
#   the app is partially protected, apply again with the backup and check that the app is
#   then protected, print its outputs, check that a second plan is empty, stop the simulator.
#
#   DEMO_CLI=terraform make demo     # Terraform 1.5.7 instead of OpenTofu 1.12.6
#   DEMO_KEEP=1 make demo            # keep the working directory (state, logs) afterwards
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

kind="${DEMO_CLI:-tofu}"
example="${DEMO_EXAMPLE:-examples/complete}"
[ -d internal/cmd/astra-sim ] || die "the simulator (internal/cmd/astra-sim) is not in this tree yet; 'make demo' needs it"

work="$(mktemp -d "${TMPDIR:-/tmp}/astra-demo.XXXXXX")"
sim_pid=""
cleanup() {
  if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
    echo "simulator stopped"
  fi
  if [ -n "${DEMO_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

step "CLI"
cli="$(install_cli "$kind")"
echo "$(cli_version "$cli")  $cli"

step "build the provider and the simulator"
# The CLI resolves source "astra-control/astra" to its own default registry host; the
# plugin directory must hold the provider under exactly that address.
case "$kind" in
  tofu) host=registry.opentofu.org ;;
  terraform) host=registry.terraform.io ;;
  *) die "DEMO_CLI must be tofu or terraform" ;;
esac
provider_version=0.0.1
plugin_dir="$work/plugins/$host/astra-control/astra/$provider_version/$(go env GOOS)_$(go env GOARCH)"
mkdir -p "$plugin_dir"
go build -ldflags "-X main.version=$provider_version-demo" -o "$plugin_dir/terraform-provider-astra_v$provider_version" .
go build -o "$work/astra-sim" ./internal/cmd/astra-sim
echo "provider: $plugin_dir"

step "start the simulator"
mkdir -p "$work/config"
# The example reads kubeconfig.yaml beside it; the simulator writes one it accepts.
# Release 24.02: the example gives its managed cluster a default bucket (API version 1.7).
"$work/astra-sim" -addr "${ASTRA_SIM_ADDR:-127.0.0.1:0}" -release 24.02 -state-file "$work/sim-state.json" \
  -kubeconfig-out "$work/config/kubeconfig.yaml" \
  >"$work/sim.out" 2>"$work/sim.log" &
sim_pid=$!
export_sim_env "$work/sim.out" "$sim_pid" "$work/sim.log"

step "init, plan and apply $example with $(cli_version "$cli")"
cp "$example"/*.tf "$work/config/"
export TF_IN_AUTOMATION=1 # shorter output: no "next steps" advice
tf() { "$cli" -chdir="$work/config" "$@"; }
# The lock file first, from the local directory: init then has nothing to compute itself and
# prints no "Incomplete lock file information" warning.
tf providers lock -no-color -fs-mirror="$work/plugins" -platform="$(go env GOOS)_$(go env GOARCH)" "$host/astra-control/astra"
tf init -input=false -no-color -plugin-dir="$work/plugins"
tf plan -input=false -no-color -var baseline_backup=false -out=demo.tfplan
tf apply -input=false -no-color demo.tfplan

protection_state() { tf output -json app | tr -d ' \n' | sed -n 's/.*"protection_state":"\([A-Za-z]*\)".*/\1/p'; }

step "the policies alone make the app partially protected (no backup yet)"
protection="$(protection_state)"
[ "$protection" = partial ] || die "the app's protection_state is '$protection', not partial"
echo "app protection_state: $protection"

step "take the baseline backup (astra_app_backup): apply $example as it ships"
tf apply -input=false -no-color -auto-approve

step "outputs"
tf output

step "a completed backup under a week old and a policy that takes backups: the app is protected"
protection="$(protection_state)"
[ "$protection" = protected ] || die "the app's protection_state is '$protection', not protected"
echo "app protection_state: $protection"

step "a second plan must be empty"
rc=0
tf plan -input=false -no-color -detailed-exitcode || rc=$?
case "$rc" in
  0) echo "no changes: the applied state matches the configuration" ;;
  2) die "the second plan is not empty (see above)" ;;
  *) die "the second plan failed (exit $rc)" ;;
esac

step "destroy: delete the backup and the policies, unmanage the app, unmanage and remove the cluster, delete the credential"
tf destroy -input=false -no-color -auto-approve 2>&1 | tee "$work/destroy.out"
# Everything that uses the bucket goes in the same destroy: nothing to warn of (issue 44).
if grep -q 'Warning:' "$work/destroy.out"; then
  die "the destroy of everything the demo built warned (see above)"
fi

step "demo finished"

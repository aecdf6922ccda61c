#!/usr/bin/env bash
# The acceptance tests (TestAcc*) against a real Astra Control: `make testacc`.
# The tests choose their target by ASTRA_ENDPOINT: set, they talk to that service;
# unset, they start the simulator in-process (that is what `make test` runs).
#
#   ASTRA_ENDPOINT=https://astra.netapp.io ASTRA_ACCOUNT_ID=… ASTRA_API_TOKEN=… make testacc
#   TF_CLI_KIND=terraform make testacc     # Terraform 1.5.7 instead of OpenTofu
#   TESTARGS='-run TestAccCluster' make testacc
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

missing=()
for v in ASTRA_ENDPOINT ASTRA_ACCOUNT_ID ASTRA_API_TOKEN; do
  [ -n "${!v:-}" ] || missing+=("$v")
done
[ "${#missing[@]}" -eq 0 ] || die "set ${missing[*]} to a real Astra Control (for the simulator, run 'make test')"

step "CLI"
cli="$(install_cli "${TF_CLI_KIND:-tofu}")"
echo "$(cli_version "$cli")  $cli"

# Only packages that have acceptance tests.
mapfile -t acc_pkgs < <(grep -rl --include='*_test.go' '^func TestAcc[A-Z_]' internal | xargs -n1 dirname | sort -u | sed 's|^|./|')
[ "${#acc_pkgs[@]}" -gt 0 ] || die "no acceptance tests found"

step "acceptance tests with $(cli_version "$cli") against $ASTRA_ENDPOINT"
# Real services are slow: long timeout, and no parallelism beyond go test's default.
TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" TF_ACC_PROVIDER_NAMESPACE=hashicorp \
  go test -count=1 -v -timeout 180m -run '^TestAcc[A-Z_]' ${TESTARGS:-} "${acc_pkgs[@]}"

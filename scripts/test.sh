#!/usr/bin/env bash
# The whole test suite (`make test`, the README's test command, and .ci/run):
#   1. build the Terraform-compatible CLIs once (cached in ~/.cache/tf-cli),
#   2. gofmt, and golangci-lint with go vet (built once from the Go module proxy),
#      and the schema compatibility gate (make schema-check),
#   3. docs/ drift check (tfplugindocs, offline) and `fmt -check` of examples/,
#   4. the README's main job (`make demo`), so it keeps working at every commit, and the
#      examples' module tests (`test`) and every command of the testing guide, under
#      OpenTofu and the newest Terraform (Terraform 1.5.7 has no `test` command),
#   5. every test except TestAcc* once (fuzz seed corpora included), then each fuzz target for 2s,
#   6. the acceptance tests in real mode (`make testacc`'s ASTRA_ENDPOINT path), against
#      astra-sim run as a separate program on one release, under OpenTofu,
#   6b. a subset of the acceptance tests with the known answers off (ASTRA_KNOWN_ANSWERS=off),
#      under OpenTofu, so the framework's own path stays exercised end to end,
#   7. the acceptance tests (TestAcc*) once per CLI, each pass headed by the CLI's name and
#      version: Terraform 1.16.4 (the newest) runs all of them; OpenTofu 1.12.6 all but
#      those that ran whole in 6 under it (nothing runs twice under one CLI);
#      Terraform 1.5.7 (the oldest supported) runs those the rule below picks.
# Acceptance runs are verbose so the log shows which CLI and version each test used; the
# output ends with go test's own summary of the last pass.
#
# The rule for Terraform 1.5.7 (also in internal/provider/acctest_test.go): the oldest CLI
# runs the acceptance tests whose name says they exercise what differs between CLI
# versions, matched by $oldest_cli_tests below on the part after "TestAcc":
#   QuietPlans, PlanTime  plan rendering of unknown, sensitive and kept values, plan-time
#             errors (*_quietPlans, *_planTimeRules; not _fleetPlan: the provider's request
#             sharing at scale is the same under every CLI, and it is the costliest test)
#   Import    import blocks, import by ID, generated configuration (Adopt* too)
#   State     state written by older releases and upgraded (StateUpgrade, RoundTrip)
#   Fault     how the CLI reports errors, partial applies and interrupts (FaultMatrix,
#             LostAnswer, Failed/failed, Harness: the CLI driven directly)
#   Valid     diagnostics for bad configuration (*_validation, *_invalid, Validation)
#   Example   the examples users copy (they must work with the oldest supported CLI)
#   Identity, WriteOnly, Query, Action: features 1.5.7 lacks; they run there to prove they
#             skip with their reason.
#   Clone     creating an app as a clone (astra_app's source), which must work on every CLI.
#   KnownAnswers  the provider's own answers to reads and plans, which must not depend on
#             the identity newer CLIs send (1.5.7 sends none)
# A new test is picked up by naming it like its peers (TestAccBucket_quietPlans); nothing
# else needs an edit. The newest Terraform and OpenTofu still run everything.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

step "Terraform-compatible CLIs (built from the Go module proxy once, then cached)"
tofu="$(install_cli tofu)"
terraform_latest="$(install_cli terraform-latest)"
terraform="$(install_cli terraform)"
clis=("$tofu" "$terraform_latest" "$terraform")
for cli in "${clis[@]}"; do echo "$(cli_version "$cli")  $cli"; done

step "gofmt"
unformatted="$(gofmt -l .)"
[ -z "$unformatted" ] || die "gofmt needed on: $unformatted"

# go vet runs inside golangci-lint (its standard set), so not again on its own.
step "golangci-lint with go vet (rules in .golangci.yml)"
make --no-print-directory lint

step "schema compatibility gate (docs/guides/stability.md)"
make --no-print-directory schema-check

# The schema comes from OpenTofu, as in `make generate` (scripts/docs.sh explains why).
step "docs/ up to date (tfplugindocs with the schema from $(cli_version "$tofu"))"
scripts/docs.sh check "$tofu"
"$tofu" fmt -check -recursive examples || die "examples/ needs formatting: run 'make fmt'"

step "the README's main job: make demo (log kept only on failure)"
demo_log="$(mktemp)"
if scripts/demo.sh >"$demo_log" 2>&1; then
  grep -E '^==>|Apply complete|No changes|Destroy complete' "$demo_log"
  rm -f "$demo_log"
else
  tail -n 80 "$demo_log"
  die "make demo failed (full log: $demo_log)"
fi

# Terraform 1.5.7 has no `test` command: tftest.sh says so and skips it.
step "module tests: examples/*/tests/*.tftest.hcl, and every command of the testing guide ($(cli_version "$tofu"), $(cli_version "$terraform_latest"))"
module_log="$(mktemp)"
if scripts/tftest.sh "${clis[@]}" >"$module_log" 2>&1 && scripts/guide-test.sh "$tofu" "$terraform_latest" >>"$module_log" 2>&1; then
  grep -E '^==>|^Success!|^every command' "$module_log"
  rm -f "$module_log"
else
  tail -n 80 "$module_log"
  die "module tests failed (full log: $module_log)"
fi

# Common to every pass: never download a CLI (absolute path), and the provider namespace
# that both CLIs accept for the in-process provider (TF_ACC_PROVIDER_NAMESPACE, gotcha G3).
export TF_ACC_PROVIDER_NAMESPACE=hashicorp

step "unit tests (everything but TestAcc*)"
TF_ACC_TERRAFORM_PATH="$tofu" go test -count=1 -skip '^TestAcc[A-Z_]' ./...

step "fuzz targets, 2s each (make fuzz runs them longer)"
FUZZTIME=2s scripts/fuzz.sh

# Only packages that have acceptance tests; keeps the verbose passes readable.
mapfile -t acc_pkgs < <(grep -rl --include='*_test.go' '^func TestAcc[A-Z_]' internal | xargs -n1 dirname | sort -u | sed 's|^|./|')
[ "${#acc_pkgs[@]}" -gt 0 ] || die "no acceptance tests found"

# The soak runs 20s per CLI here (make soak: 10 minutes). The 200-cluster concurrency test
# runs with 20 clusters, under OpenTofu only (make soak runs all 200 under each).
export SOAK_SECONDS="${SOAK_SECONDS:-20}" ASTRA_TEST_CONCURRENCY_CLUSTERS="${ASTRA_TEST_CONCURRENCY_CLUSTERS:-20}"
oldest_cli_tests='^TestAcc[A-Za-z0-9_]*([Qq]uietPlans|[Pp]lanTime|[Ii]mport|[Aa]dopt|State|RoundTrip|Fault|[Ll]ostAnswer|[Ff]ailed|Harness|[Vv]alid|Example|Identity|[Ww]riteOnly|[Qq]uery|Action|[Cc]lone|KnownAnswers)'
# Identity and access (issue 47): ephemeral resources, which 1.5.7 lacks (they prove they skip with their reason).
oldest_cli_tests="${oldest_cli_tests%)}|[Ee]phemeral)"

# acc_pass CLI: the TestAcc* tests under CLI, verbosely, headed by the CLI's name and version.
acc_pass() {
  local cli="$1" run='^TestAcc[A-Z_]' scope="all of them" skip='^TestAccConcurrency200Clusters$' pass_start
  case "$cli" in
    "$tofu")
      scope="all but the ${#ran_whole[@]} that ran whole against the separate astra-sim above"
      skip='^$'
      [ "${#ran_whole[@]}" -eq 0 ] || skip="$ran_whole_re" ;;
    "$terraform")
      run="$oldest_cli_tests" scope="those the rule for the oldest CLI picks (see the top of this script)" ;;
  esac
  step "acceptance tests with $(cli_version "$cli") ($cli): $scope"
  pass_start=$(date +%s)
  local rc=0
  TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" go test -count=1 -v -timeout 60m -run "$run" -skip "$skip" "${acc_pkgs[@]}" || rc=$?
  echo "$(cli_version "$cli") pass: $(( $(date +%s) - pass_start ))s"
  return "$rc"
}

# Most of an acceptance test's time is spent waiting (on the CLI's start-up, on the
# simulator's transitions and polls), so the newest Terraform's pass, the longest, runs in
# the background beside every other acceptance pass below; its log is shown after them,
# whole, and any pass failing fails the run.
latest_log="$(mktemp)"
acc_pass "$terraform_latest" >"$latest_log" 2>&1 &
latest_pid=$!
# A failing step below ends the script: the background pass (go test, its test binary, the
# CLIs it runs) goes with it, its log shown.
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
trap 'if kill -0 "$latest_pid" 2>/dev/null; then kill_tree "$latest_pid"; tail -n 40 "$latest_log"; fi' EXIT

# Real mode first (`make testacc`'s ASTRA_ENDPOINT path), so the log ends with the last CLI
# pass's own summary. The release with the most to check: it speaks cluster API 1.7, so no
# test skips for an older one. TestAccHarness never talks to Astra Control and runs below.
real_release="${TESTACC_SIM_RELEASE:-24.02}"
# A test that passes there with no gap (no simulator-only step or check, no ad-hoc
# simulator branch: accTarget.noteRealModeGap lists the others in $ASTRA_TEST_REAL_GAPS) ran
# whole under OpenTofu, so the in-process OpenTofu pass below does not run it again.
step "acceptance tests in real mode against a separate astra-sim $real_release ($(cli_version "$tofu"))"
real_log="$(mktemp)" real_gaps="$(mktemp)"
ASTRA_TEST_REAL_GAPS="$real_gaps" TF_CLI_KIND=tofu TESTARGS='-skip ^TestAccHarness$' \
  scripts/testacc-sim.sh "$real_release" 2>&1 | tee "$real_log"
mapfile -t ran_whole < <(sed -n 's/^--- PASS: \(TestAcc[A-Za-z0-9_]*\) .*/\1/p' "$real_log" | sort -u | comm -23 - <(sort -u "$real_gaps"))
rm -f "$real_log" "$real_gaps"
ran_whole_re="^($(IFS='|'; echo "${ran_whole[*]}"))\$"
echo "ran whole in real mode (not run again in-process under OpenTofu): ${#ran_whole[@]} tests"

# The framework's path, which the known answers (internal/knownanswers) stand in front of,
# end to end: with ASTRA_KNOWN_ANSWERS=off every request goes to the framework. A subset,
# to keep make test's time: the known answers' fleet (the very plans and applies they
# answer, now the framework's, with the same requests), the examples users copy, import,
# identity and generated configuration (the framework's import path and the reads that
# follow), state from older releases (the upgrades the known answers take), the fault
# matrix (errors and partial applies through the framework's create), and the refreshes
# that warn of a failed or removed cluster and the plan that warns of a kubeconfig rotation
# (what issue 32's two defects lost on the known answers' path).
known_answers_off_tests='^TestAcc(KnownAnswers_fleet|Example[A-Za-z]*|Cluster_import[A-Za-z]*|Cluster_existsNamesItAndItsImport|Identity_[A-Za-z]*|App_identity|AdoptGeneratedConfig|RoundTrip_releases|FaultMatrix|KubeconfigCredential_rotationToAnotherCluster|ManagedCluster_failed|Cluster_failed)$'
step "acceptance tests with the known answers off (ASTRA_KNOWN_ANSWERS=off), $(cli_version "$tofu"): the known answers' fleet, examples, import, identity, state, faults, warnings"
pass_start=$(date +%s)
ASTRA_KNOWN_ANSWERS=off TF_ACC=1 TF_ACC_TERRAFORM_PATH="$tofu" go test -count=1 -v -timeout 30m -run "$known_answers_off_tests" ./internal/provider/
echo "known answers off pass: $(( $(date +%s) - pass_start ))s"

rc=0
acc_pass "$tofu" || rc=1
acc_pass "$terraform" || rc=1
wait "$latest_pid" || rc=1
cat "$latest_log"
rm -f "$latest_log"
[ "$rc" -eq 0 ] || die "an acceptance pass failed (see its log above)"


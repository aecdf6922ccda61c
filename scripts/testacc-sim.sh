#!/usr/bin/env bash
# The acceptance tests in real mode (`make testacc`) against astra-sim started as a separate
# program, as a user's own Astra Control would be: the ASTRA_ENDPOINT path of the harness,
# kept working by `make test` (one release, one CLI) and by `make testacc-sim RELEASE=...`.
#
#   scripts/testacc-sim.sh 23.07                   # the release astra-sim speaks (22.11 .. 24.02)
#   TF_CLI_KIND=terraform scripts/testacc-sim.sh 24.02
#   TESTARGS='-run TestAccCluster_' scripts/testacc-sim.sh 22.11
#
# Fails on any test failure, or when no test passed; prints the pass/skip/fail counts.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

release="${1:-${RELEASE:-23.07}}"
work="$(mktemp -d "${TMPDIR:-/tmp}/astra-testacc-sim.XXXXXX")"
sim_pid=""
cleanup() {
  if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "astra-sim $release as a separate program"
go build -o "$work/astra-sim" ./internal/cmd/astra-sim
"$work/astra-sim" -addr 127.0.0.1:0 -release "$release" -kubeconfig-out "$work/kubeconfig.yaml" \
  >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!

export_sim_env "$work/sim.out" "$sim_pid" "$work/sim.err"
export ASTRA_TEST_KUBECONFIG="$work/kubeconfig.yaml"
echo "ASTRA_TEST_KUBECONFIG=$ASTRA_TEST_KUBECONFIG"
# The tests learn the API version from the service itself (acc_target_test.go); a
# developer's setting would hide that path.
unset ASTRA_API_VERSION ASTRA_TEST_CLOUD_ID

# Ready when the API answers an authenticated GET (plain bash: no curl needed).
hostport="${ASTRA_ENDPOINT#http://}"
ready=""
for _ in $(seq 1 100); do
  if exec 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}" 2>/dev/null; then
    printf 'GET /accounts/%s/topology/v1/clouds HTTP/1.0\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n' \
      "$ASTRA_ACCOUNT_ID" "$hostport" "$ASTRA_API_TOKEN" >&3
    IFS= read -r status <&3 || status=""
    exec 3<&-
    case "$status" in "HTTP/1."?" 200"*) ready=1; break ;; esac
  fi
  sleep 0.1
done
[ -n "$ready" ] || die "astra-sim at $ASTRA_ENDPOINT does not answer GET clouds with 200"
echo "ready: $ASTRA_ENDPOINT answers GET /topology/v1/clouds"

log="$work/testacc.log"
rc=0
scripts/testacc.sh 2>&1 | tee "$log" || rc=$?
# Top-level results only (subtests are indented).
pass=$(grep -c '^--- PASS' "$log" || true)
skip=$(grep -c '^--- SKIP' "$log" || true)
fail=$(grep -c '^--- FAIL' "$log" || true)
step "real mode against astra-sim $release: $pass passed, $skip skipped, $fail failed"
# Each skipped test with its reason (the last line it logged), and each skipped step.
awk '/^=== RUN/{t=$3; l=""} /^    [^ :]+:[0-9]+: /{l=$0; sub(/^ +[^ :]+:[0-9]+: /,"",l)}
     /: step skipped against a real/{print "  "t" (one step): "l}
     /^--- SKIP: /{print "  "$3": "l}' "$log"
[ "$rc" -eq 0 ] || die "acceptance tests failed in real mode against astra-sim $release"
[ "$pass" -gt 0 ] || die "no acceptance test passed in real mode against astra-sim $release"

#!/usr/bin/env bash
# The examples' own tests (examples/*/tests/*.tftest.hcl), run as a module author's CI
# would run them (`make tftest`; a step of `make test`): for each example, a fresh
# simulator started with -ready-file, the locally built provider installed by a plain
# `init` from a filesystem mirror (no registry), then `test`.
#
#   scripts/tftest.sh [CLI...]    # default: the cached OpenTofu
#
# Terraform 1.5.7 has no `test` command (Terraform added it in 1.6): such a CLI is
# skipped with a line saying so. Each example is copied to a scratch directory, so
# examples/ gets no .terraform or lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

[ $# -gt 0 ] || set -- "$(install_cli tofu)"
work="$(mktemp -d "${TMPDIR:-/tmp}/astra-tftest.XXXXXX")"
sim_pid=""
stop_sim() {
  if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" && wait "$sim_pid" || true
  fi
  sim_pid=""
}
trap 'stop_sim; rm -rf "$work"' EXIT

# OpenTofu has `test` from its first release (1.6); Terraform from 1.6 (1.5's `test` was an
# experiment of another format that ignores .tftest.hcl files and reports success).
has_test_command() {
  case "$(cli_version "$1")" in
    "Terraform v0."* | "Terraform v1."[0-5].*) return 1 ;;
    *) return 0 ;;
  esac
}

clis=()
for cli in "$@"; do
  if has_test_command "$cli"; then
    clis+=("$cli")
  else
    step "skipped: $(cli_version "$cli") has no 'test' command for .tftest.hcl files (Terraform added it in 1.6), so they run under OpenTofu only"
  fi
done
[ "${#clis[@]}" -gt 0 ] || exit 0

step "build the provider (into a local filesystem mirror) and the simulator"
local_provider_mirror "$work"
go build -o bin/local-mirror/astra-sim ./internal/cmd/astra-sim && cp bin/local-mirror/astra-sim "$work/astra-sim"

mapfile -t examples < <(for t in examples/*/tests; do dirname "$t"; done)
[ "${#examples[@]}" -gt 0 ] && [ -d "${examples[0]}" ] || die "no examples/*/tests directory"

for cli in "${clis[@]}"; do
  for example in "${examples[@]}"; do
    step "$example/tests with $(cli_version "$cli")"
    # A copy of all of examples/, so that a test can use a sibling example as a module
    # (source = "../complete"); the test runs in this example's copy.
    tree="$work/run/$(basename "$cli")/$(basename "$example")"
    dir="$tree/$example"
    mkdir -p "$tree" && cp -R examples "$tree"/
    ready="$dir/astra-sim.env"
    # The complete example reads kubeconfig.yaml beside it; the simulator writes one it accepts.
    # Release 24.02: the complete example's default bucket needs API version 1.7.
    "$work/astra-sim" -addr 127.0.0.1:0 -release 24.02 -kubeconfig-out "$dir/kubeconfig.yaml" -ready-file "$ready" >"$dir/astra-sim.log" 2>&1 &
    sim_pid=$!
    for _ in $(seq 1 100); do
      [ -f "$ready" ] && break
      kill -0 "$sim_pid" 2>/dev/null || { cat "$dir/astra-sim.log" >&2; die "the simulator exited"; }
      sleep 0.1
    done
    [ -f "$ready" ] || { cat "$dir/astra-sim.log" >&2; die "the simulator wrote no ready file within 10s"; }
    log="$dir/test.log"
    rc=0
    (
      set -a
      . "$ready"
      set +a
      "$cli" -chdir="$dir" init -input=false -no-color >"$dir/init.log" || { cat "$dir/init.log"; exit 1; }
      "$cli" -chdir="$dir" test -no-color
    ) >"$log" 2>&1 || rc=$?
    cat "$log"
    stop_sim
    [ "$rc" -eq 0 ] || die "$example: $(cli_version "$cli") test failed (exit $rc)"
    # An empty tests/ also "succeeds": require that runs passed.
    grep -Eq '^Success! [1-9][0-9]* passed, 0 failed' "$log" || die "$example: no test run passed"
  done
done

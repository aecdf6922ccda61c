#!/usr/bin/env bash
# Fuzz each fuzz target for FUZZTIME (default 60s): `make fuzz` (long), and a short pass in
# `make test` (FUZZTIME=2s). Every target's seed corpus (f.Add and testdata/fuzz/) also runs
# as a plain test in every `go test`. A failure writes the input that broke it to the
# package's testdata/fuzz/<target>/; commit it with the fix, so it stays a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-60s}"
targets=(
  ./internal/astra:FuzzProblemDecoding
  ./internal/astra:FuzzObjectDecoding
  ./internal/astra:FuzzFilterEncoder
  ./internal/astra:FuzzScanID
  ./internal/astra:FuzzDelta
  ./internal/kubeconfig:FuzzParse
  ./internal/provider/validate:FuzzUUID
  ./internal/provider/validate:FuzzResourceName
  ./internal/labelselector:FuzzValidateMatchesKubernetes
  ./internal/knownanswers:FuzzReadJSON
  ./internal/knownanswers:FuzzMsgPackDecode
  ./internal/knownanswers:FuzzStreamMsgPack
)
# Every Fuzz function must be listed above, so a new one is not silently left out.
found="$(grep -rho --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' internal | sed 's/^func //' | sort)"
listed="$(printf '%s\n' "${targets[@]}" | sed 's/.*://' | sort)"
if [ "$found" != "$listed" ]; then
  echo "scripts/fuzz.sh lists other fuzz targets than the code has:" >&2
  diff <(echo "$listed") <(echo "$found") >&2 || true
  exit 1
fi
for target in "${targets[@]}"; do
  pkg="${target%%:*}"
  name="${target##*:}"
  echo "fuzz $name ($pkg) for $fuzztime"
  log="$(mktemp)"
  # Minimizing a new input may take the engine's default minute whatever -fuzztime says
  # (FuzzMsgPackDecode's did): a few seconds keep a 2-second pass one.
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s "$pkg" >"$log" 2>&1; then
    tail -n 3 "$log"
  elif grep -q 'context deadline exceeded' "$log" && ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"; then
    # Go 1.26's fuzz coordinator can report its own -fuzztime deadline as a failure
    # (golang/go#75804, fixed in Go 1.27) with no input to blame: that is no finding.
    tail -n 4 "$log"
    echo "  (the fuzz engine's own deadline race, golang/go#75804: no failing input, not a finding)"
  else
    cat "$log"
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
done
# The differential guard of the known answers (internal/knownanswers/differential_test.go)
# runs for 2s in every `go test`; here it runs for FUZZTIME (KNOWN_ANSWERS_DURATION, when set,
# overrides it; KNOWN_ANSWERS_SEED replays a logged seed). make test's short pass skips it.
if [ "$fuzztime" != "2s" ] || [ -n "${KNOWN_ANSWERS_DURATION:-}" ]; then
  duration="${KNOWN_ANSWERS_DURATION:-$fuzztime}"
  echo "differential guard of the known answers for $duration"
  log="$(mktemp)"
  if KNOWN_ANSWERS_DURATION="$duration" go test -count=1 -timeout 0 -run '^TestKnownAnswers_differential$' -v ./internal/knownanswers/ >"$log" 2>&1; then
    grep -E 'random seed|random rounds|^ok' "$log"
  else
    cat "$log"
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
fi

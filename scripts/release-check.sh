#!/usr/bin/env bash
# Checks .goreleaser.yml and builds a snapshot release for this platform, offline
# (`make release-check`). goreleaser is built once from the Go module proxy by
# scripts/tools.sh. Runs in a throw-away clone of HEAD (commit first), because
# `goreleaser check` wants a git remote. Asserts the provider's registry artifacts (zip,
# SHA256SUMS with the manifest and without the simulator), the astra-sim archive with its own
# sums, and that the snapshot's astra-sim starts and answers GET /healthz.
#
#   scripts/release-check.sh [GORELEASER_VERSION] [TOOLS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

bin="$(scripts/tools.sh goreleaser "${1:-v2.16.0}" "${2:-$HOME/.cache/terraform-provider-astra/tools}")"

clone="$(mktemp -d)"
trap 'rm -rf "$clone"' EXIT
git clone -q . "$clone"
cd "$clone"
git remote set-url origin https://github.com/astra-control/terraform-provider-astra.git  # parsed, never contacted

step "goreleaser check"
"$bin" check
# `release` has no --single-target: narrow the matrix to this platform in the clone's copy
# (the full matrix costs about 10 minutes of CPU on 2 cores).
sed -i -e "s/^\( *goos:\) \[.*\]$/\1 [$(go env GOOS)]/" -e "s/^\( *goarch:\) \[.*\]$/\1 [$(go env GOARCH)]/" .goreleaser.yml
step "goreleaser release --snapshot --skip=publish,sign ($(go env GOOS)/$(go env GOARCH) only)"
"$bin" release --snapshot --clean --skip=publish,sign
step "artifacts"
os="$(go env GOOS)" arch="$(go env GOARCH)"
provider_sums=(dist/terraform-provider-astra_*_SHA256SUMS)
sim_sums=(dist/astra-sim_*_SHA256SUMS)
ext=tar.gz; [ "$os" != windows ] || ext=zip
provider_zip=(dist/terraform-provider-astra_*_"${os}_${arch}".zip)
sim_archive=(dist/astra-sim_*_"${os}_${arch}.$ext")
for f in "${provider_sums[0]}" "${sim_sums[0]}" "${provider_zip[0]}" "${sim_archive[0]}"; do
  [ -f "$f" ] || die "missing artifact: $f"
done
ls -l dist/*.zip dist/*.tar.gz dist/*SHA256SUMS 2>/dev/null || true
cat "${provider_sums[0]}" "${sim_sums[0]}"
# The registry needs the manifest listed in SHA256SUMS (it is uploaded next to it on release);
# the simulator stays out of that file (Terraform copies each line into users' lock files).
grep -q '_manifest\.json$' "${provider_sums[0]}" || die "SHA256SUMS does not list the registry manifest"
grep -q "$(basename "${provider_zip[0]}")\$" "${provider_sums[0]}" || die "SHA256SUMS does not list $(basename "${provider_zip[0]}")"
! grep -q astra-sim "${provider_sums[0]}" || die "the provider's SHA256SUMS lists astra-sim archives"
grep -q "$(basename "${sim_archive[0]}")\$" "${sim_sums[0]}" || die "$(basename "${sim_sums[0]}") does not list $(basename "${sim_archive[0]}")"
(cd dist && sha256sum --ignore-missing -c "$(basename "${provider_sums[0]}")" "$(basename "${sim_sums[0]}")")
unzip -l "${provider_zip[0]}"
unzip -l "${provider_zip[0]}" | grep -q ' terraform-provider-astra_v[^/]*$' || die "the provider zip does not hold terraform-provider-astra_v<version>"

step "the snapshot's astra-sim starts and answers GET /healthz"
run="$(mktemp -d)"
trap 'rm -rf "$clone" "$run"' EXIT
case "$ext" in
  zip) unzip -q "${sim_archive[0]}" -d "$run" ;;
  *) tar -xzf "${sim_archive[0]}" -C "$run" ;;
esac
"$run/astra-sim" -addr 127.0.0.1:0 -ready-file "$run/astra-sim.env" >"$run/astra-sim.log" 2>&1 &
sim_pid=$!
trap 'kill "$sim_pid" 2>/dev/null; wait "$sim_pid" 2>/dev/null; rm -rf "$clone" "$run"' EXIT
for _ in $(seq 1 100); do [ -f "$run/astra-sim.env" ] && break; sleep 0.1; done
[ -f "$run/astra-sim.env" ] || { cat "$run/astra-sim.log" >&2; die "the snapshot astra-sim wrote no ready file"; }
endpoint="$(sed -n 's/^ASTRA_ENDPOINT=//p' "$run/astra-sim.env")"
health="$(curl -fsS "$endpoint/healthz")" || die "GET $endpoint/healthz failed"
echo "GET $endpoint/healthz: $health"
case "$health" in *'"status":"ok"'*) ;; *) die "unexpected /healthz answer" ;; esac

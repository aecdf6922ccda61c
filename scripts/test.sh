#!/usr/bin/env bash
# The whole test suite (`make test`, the README's test command, and .ci/run):
#   1. build the Terraform-compatible CLIs once (cached in ~/.cache/tf-cli),
#   2. gofmt, go vet and golangci-lint (built once from the Go module proxy),
#      and the schema compatibility gate (make schema-check),
#   3. docs/ drift check (tfplugindocs, offline) and `fmt -check` of examples/,
#   4. the README's main job (`make demo`), so it keeps working at every commit,
#   5. every test except TestAcc* once,
#   6. the acceptance tests (TestAcc*) once per CLI: OpenTofu 1.12.6, then Terraform 1.5.7.
# Acceptance runs are verbose so the log shows which CLI and version each test used; the
# output ends with go test's own summary of the last pass.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

step "Terraform-compatible CLIs (built from the Go module proxy once, then cached)"
tofu="$(install_cli tofu)"
terraform="$(install_cli terraform)"
clis=("$tofu" "$terraform")
for cli in "${clis[@]}"; do echo "$(cli_version "$cli")  $cli"; done

step "gofmt and go vet"
unformatted="$(gofmt -l .)"
[ -z "$unformatted" ] || die "gofmt needed on: $unformatted"
go vet ./...

step "golangci-lint (rules in .golangci.yml)"
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

# Common to every pass: never download a CLI (absolute path), and the provider namespace
# that both CLIs accept for the in-process provider (TF_ACC_PROVIDER_NAMESPACE, gotcha G3).
export TF_ACC_PROVIDER_NAMESPACE=hashicorp

step "unit tests (everything but TestAcc*)"
TF_ACC_TERRAFORM_PATH="$tofu" go test -count=1 -skip '^TestAcc[A-Z_]' ./...

# Only packages that have acceptance tests; keeps the verbose passes readable.
mapfile -t acc_pkgs < <(grep -rl --include='*_test.go' '^func TestAcc[A-Z_]' internal | xargs -n1 dirname | sort -u | sed 's|^|./|')
[ "${#acc_pkgs[@]}" -gt 0 ] || die "no acceptance tests found"

for cli in "${clis[@]}"; do
  step "acceptance tests with $(cli_version "$cli") ($cli)"
  TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" go test -count=1 -v -timeout 60m -run '^TestAcc[A-Z_]' "${acc_pkgs[@]}"
done

#!/usr/bin/env bash
# make soak: the seeded soak for SOAK_SECONDS (default 600) and the 200-cluster concurrency
# test, under the CLI of TF_CLI_KIND (tofu by default; terraform for Terraform 1.5.7).
# SOAK_SEED=N replays a run (its seed is printed first).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
cli="$(install_cli "${TF_CLI_KIND:-tofu}")"
step "soak for ${SOAK_SECONDS:-600}s and 200 clusters at -parallelism=20 with $(cli_version "$cli")"
SOAK_SECONDS="${SOAK_SECONDS:-600}" ASTRA_TEST_CONCURRENCY_CLUSTERS=200 TF_ACC=1 TF_ACC_PROVIDER_NAMESPACE=hashicorp \
  TF_ACC_TERRAFORM_PATH="$cli" go test -count=1 -v -timeout 120m -run '^(TestAccSoak|TestAccConcurrency200Clusters)$' ./internal/provider

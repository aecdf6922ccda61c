#!/usr/bin/env bash
# Installs this work tree's provider for Terraform and OpenTofu before it is published
# (`make local-mirror`): builds it into a filesystem mirror under DIR and writes DIR/cli.tfrc,
# the CLI configuration that installs astra-control/astra from that mirror and every other
# provider from its registry. Then `export TF_CLI_CONFIG_FILE=DIR/cli.tfrc` and a plain
# `init` works, lock file included. The testing guide's test and the demo use the same block.
#
#   scripts/local-mirror.sh [DIR]     (default: ~/.terraform.d/astra-local)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
dir="${1:-$HOME/.terraform.d/astra-local}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
local_provider_mirror "$dir"
echo "provider mirror: $dir/mirror"
echo "CLI configuration: $dir/cli.tfrc"
echo
echo "export TF_CLI_CONFIG_FILE=$dir/cli.tfrc"

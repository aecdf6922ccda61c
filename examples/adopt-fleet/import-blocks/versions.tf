terraform {
  # Terraform 1.5 and 1.6 have import blocks but not for_each on them: this configuration
  # only reads Astra Control and prints one import block per object, for
  # `plan -generate-config-out`. It works with later CLIs too.
  required_version = ">= 1.5.0"
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The endpoint, account and token come from ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID and
# ASTRA_API_TOKEN.
provider "astra" {}

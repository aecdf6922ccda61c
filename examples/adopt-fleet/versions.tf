terraform {
  # import blocks with for_each: Terraform 1.7 or later, OpenTofu 1.7 or later. With
  # Terraform 1.5 or 1.6, generate the import blocks instead (see import-blocks/).
  required_version = ">= 1.7.0"
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The endpoint, account and token come from ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID and
# ASTRA_API_TOKEN.
provider "astra" {}

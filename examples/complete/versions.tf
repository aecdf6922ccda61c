terraform {
  required_version = ">= 1.5"
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The endpoint, account and token come from ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID and
# ASTRA_API_TOKEN (scripts/demo.sh exports the simulator's). API version 1.7 (Astra Control
# 24.02 and later) is the one with a managed cluster's default bucket.
provider "astra" {
  api_version = "1.7"
}

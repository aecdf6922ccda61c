terraform {
  required_version = ">= 1.5"
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The endpoint, account and token come from ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID and
# ASTRA_API_TOKEN.
provider "astra" {}

terraform {
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The connection comes from the environment: ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID and
# ASTRA_API_TOKEN.
provider "astra" {}

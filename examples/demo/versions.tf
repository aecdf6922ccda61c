terraform {
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The connection comes from the ASTRA_* variables that scripts/demo.sh exports from the
# simulator's banner (ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID, ASTRA_API_TOKEN).
provider "astra" {}

terraform {
  # Write-only arguments (the bind password) and ephemeral resources (the CI token) need
  # Terraform 1.11 or OpenTofu 1.11.
  required_version = ">= 1.11"
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# The endpoint, account and token come from ASTRA_ENDPOINT, ASTRA_ACCOUNT_ID and
# ASTRA_API_TOKEN: an admin's token, since this configuration manages access.
provider "astra" {}

# The CI pipeline's own configuration: the same Astra Control, with a token opened for this
# run only (see astra_api_token in main.tf).
provider "astra" {
  alias     = "ci"
  api_token = ephemeral.astra_api_token.ci.token
}

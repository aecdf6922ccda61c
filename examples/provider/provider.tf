terraform {
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

# Astra Control Service: the connection comes from the environment (ASTRA_ENDPOINT,
# ASTRA_ACCOUNT_ID and ASTRA_API_TOKEN), so no secret is written in the configuration.
provider "astra" {}

# Astra Control Center on premises, behind a certificate from a private CA: trust that CA
# with ca_certificate_file (or ca_certificate). insecure_skip_verify = true would accept
# any certificate; keep it for test installations.
provider "astra" {
  alias               = "on_prem"
  endpoint            = "https://astra.example.com"
  account_id          = "6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f"
  ca_certificate_file = "${path.module}/astra-ca.pem"
  api_version         = "1.7" # Astra Control Center 24.02
  # api_token comes from ASTRA_API_TOKEN.
}

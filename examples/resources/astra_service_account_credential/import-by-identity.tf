# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_service_account_credential.gcp
  identity = {
    id = "2b1a0f9e-8d7c-4b5a-8f3e-2d1c0b9a8f7e"
  }
}

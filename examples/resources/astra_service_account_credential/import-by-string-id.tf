# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_service_account_credential.gcp
  id = "2b1a0f9e-8d7c-4b5a-8f3e-2d1c0b9a8f7e"
}

# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_s3_credential.backups
  identity = {
    id = "7c6b5a4f-3e2d-4c1b-9a0f-8e7d6c5b4a3f"
  }
}

# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_s3_credential.backups
  id = "7c6b5a4f-3e2d-4c1b-9a0f-8e7d6c5b4a3f"
}

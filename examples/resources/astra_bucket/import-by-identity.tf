# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_bucket.backups
  identity = {
    id = "5f2d6c1e-8b3a-4e7f-9a1d-3c5e7f9b1d2a"
  }
}

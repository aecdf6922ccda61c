# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_bucket.backups
  id = "5f2d6c1e-8b3a-4e7f-9a1d-3c5e7f9b1d2a"
}

# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_cloud.gcp
  id = "0c8b4e1a-6a4d-4f53-9b6e-2f3a1c5d7e90"
}

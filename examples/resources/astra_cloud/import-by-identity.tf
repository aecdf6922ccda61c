# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_cloud.gcp
  identity = {
    id = "0c8b4e1a-6a4d-4f53-9b6e-2f3a1c5d7e90"
  }
}

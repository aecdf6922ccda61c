# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_group.ops
  identity = {
    id = "8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d"
  }
}

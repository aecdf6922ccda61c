# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_managed_cluster.prod_east
  identity = {
    id = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
  }
}

# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_managed_cluster.prod_east
  id = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
}

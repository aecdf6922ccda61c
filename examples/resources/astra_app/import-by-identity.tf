# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_app.shop
  identity = {
    id = "6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f"
  }
}

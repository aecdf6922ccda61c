# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_app.shop
  id = "6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f"
}

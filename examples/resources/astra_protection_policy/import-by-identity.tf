# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity: its app's ID and its own.
import {
  to = astra_protection_policy.shop_daily
  identity = {
    app_id = "6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f"
    id     = "2a4b6c8d-1e3f-4a5b-8c7d-9e0f1a2b3c4d"
  }
}

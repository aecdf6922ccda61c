# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's identity.
import {
  to = astra_app_mirror.shop
  identity = {
    id = "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
  }
}

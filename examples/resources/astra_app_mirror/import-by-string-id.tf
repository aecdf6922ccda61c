# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_app_mirror.shop
  id = "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
}

# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_user.jdoe
  id = "8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d"
}

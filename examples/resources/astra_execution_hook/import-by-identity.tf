# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_execution_hook.pre_snapshot
  identity = {
    id = "3a9b7c5d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
  }
}

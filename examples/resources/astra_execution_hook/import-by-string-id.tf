# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_execution_hook.pre_snapshot
  id = "3a9b7c5d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
}

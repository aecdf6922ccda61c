# Terraform 1.12 and later, and OpenTofu 1.12 and later, can import by the resource's
# identity (its Astra ID) instead.
import {
  to = astra_kubeconfig_credential.prod_east
  identity = {
    id = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
  }
}

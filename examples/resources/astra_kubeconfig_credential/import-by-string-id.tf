# Terraform 1.5 and later, and OpenTofu, can import with a block instead.
import {
  to = astra_kubeconfig_credential.prod_east
  id = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
}

# A credential is imported by its Astra Control ID. The kubeconfig cannot be read back:
# leave kubeconfig out to keep the one Astra Control holds, or set it (or kubeconfig_wo)
# to rotate it with the next apply.
terraform import astra_kubeconfig_credential.prod_east 9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b

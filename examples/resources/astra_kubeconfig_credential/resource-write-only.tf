# Terraform 1.11 and later: the kubeconfig is sent to Astra Control but never stored in
# state or plan. Bump kubeconfig_wo_version whenever the file changes to rotate it.
resource "astra_kubeconfig_credential" "prod_east" {
  name                  = "prod-east"
  kubeconfig_wo         = file("${path.module}/prod-east.kubeconfig.yaml")
  kubeconfig_wo_version = "2"
}

# The kubeconfig of the cluster, read from a file: one cluster, one context.
resource "astra_kubeconfig_credential" "prod_east" {
  name       = "prod-east"
  kubeconfig = file("${path.module}/prod-east.kubeconfig.yaml")
}

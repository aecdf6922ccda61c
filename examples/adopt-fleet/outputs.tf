output "adopted" {
  description = "How many objects this configuration manages."
  value = {
    clusters         = length(astra_cluster.this)
    managed_clusters = length(astra_managed_cluster.this)
    credentials      = length(astra_kubeconfig_credential.this)
  }
}

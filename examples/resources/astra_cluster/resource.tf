# The private cloud: clusters reached with a kubeconfig are added to it.
data "astra_clouds" "private" {
  cloud_type = "private"
}

# The kubeconfig Astra Control uses to reach the cluster.
resource "astra_kubeconfig_credential" "prod_east" {
  name       = "prod-east"
  kubeconfig = file("${path.module}/prod-east.kubeconfig")
}

# Create waits until the cluster is running (at most timeouts.create).
resource "astra_cluster" "prod_east" {
  cloud_id      = data.astra_clouds.private.clouds[0].id
  credential_id = astra_kubeconfig_credential.prod_east.id
  name          = "prod-east"

  labels = {
    team = "storage"
  }

  timeouts = {
    create = "45m"
  }
}

output "prod_east" {
  value = {
    id                    = astra_cluster.prod_east.id
    state                 = astra_cluster.prod_east.state
    managed_state         = astra_cluster.prod_east.managed_state
    cluster_type          = astra_cluster.prod_east.cluster_type
    cluster_version       = astra_cluster.prod_east.cluster_version_string
    default_storage_class = astra_cluster.prod_east.default_storage_class
  }
}

# The configuration `make demo` applies against the Astra Control simulator: it adds a
# Kubernetes cluster to Astra Control and prints what Astra Control reports about it. The
# same configuration works against a real Astra Control with a real kubeconfig.

# Clusters reached with a kubeconfig are added to the account's private cloud.
data "astra_clouds" "private" {
  cloud_type = "private"
}

# The kubeconfig of the cluster to add. The simulator checks its shape but never contacts
# the server, so this one is made up; with a real cluster, read yours with file() (or,
# with Terraform 1.11 or later, pass it as kubeconfig_wo so it never reaches state).
locals {
  demo_kubeconfig = <<-EOT
    apiVersion: v1
    kind: Config
    clusters:
    - name: demo-cluster
      cluster:
        server: https://demo-cluster.k8s.example:6443
    contexts:
    - name: demo
      context:
        cluster: demo-cluster
        user: demo-admin
    current-context: demo
    users:
    - name: demo-admin
      user:
        token: not-a-real-token
  EOT
}

resource "astra_kubeconfig_credential" "demo" {
  name       = "demo-cluster"
  kubeconfig = local.demo_kubeconfig
}

# Create returns once Astra Control reports the cluster running.
resource "astra_cluster" "demo" {
  cloud_id      = data.astra_clouds.private.clouds[0].id
  credential_id = astra_kubeconfig_credential.demo.id
  name          = "demo-cluster"

  labels = {
    environment = "demo"
  }
}

output "cluster" {
  description = "The cluster as Astra Control reports it."
  value = {
    id                     = astra_cluster.demo.id
    name                   = astra_cluster.demo.name
    cloud_id               = astra_cluster.demo.cloud_id
    state                  = astra_cluster.demo.state
    managed_state          = astra_cluster.demo.managed_state
    protection_state       = astra_cluster.demo.protection_state
    cluster_type           = astra_cluster.demo.cluster_type
    cluster_version_string = astra_cluster.demo.cluster_version_string
    trident_version        = astra_cluster.demo.trident_version
    default_storage_class  = astra_cluster.demo.default_storage_class
    namespaces             = astra_cluster.demo.namespaces
    api_service_id         = astra_cluster.demo.api_service_id
    created                = astra_cluster.demo.metadata.creation_timestamp
  }
}

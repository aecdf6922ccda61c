output "cloud_id" {
  description = "The cloud added with the service account."
  value       = astra_cloud.this.id
}

output "cluster" {
  description = "The managed cluster as Astra Control reports it."
  value = {
    id            = astra_managed_cluster.this.id
    name          = astra_managed_cluster.this.name
    cluster_type  = astra_managed_cluster.this.cluster_type
    location      = astra_managed_cluster.this.location
    state         = astra_managed_cluster.this.state
    managed_state = astra_managed_cluster.this.managed_state
  }
}

# Every GKE cluster of a cloud that can be brought under management.
data "astra_clusters" "manageable" {
  cloud_id      = data.astra_cloud.gcp.id
  cluster_type  = "gke"
  managed_state = "unmanaged"
}

output "manageable_clusters" {
  value = [for c in data.astra_clusters.manageable.clusters : c.name]
}

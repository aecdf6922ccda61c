# A cluster Astra Control discovered in a public cloud: found by data source, then managed.
data "astra_cluster" "gke_prod" {
  cloud_id = data.astra_cloud.gcp.id
  name     = "gke-prod"
}

resource "astra_managed_cluster" "gke_prod" {
  cluster_id                    = data.astra_cluster.gke_prod.id
  trident_managed_state_desired = "managed"
}

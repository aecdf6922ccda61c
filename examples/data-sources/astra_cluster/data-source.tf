# A cluster by its cloud and name, for example one Astra Control discovered in GCP.
data "astra_cluster" "gke_prod" {
  cloud_id = data.astra_cloud.gcp.id
  name     = "gke-prod"
}

# A cluster by ID.
data "astra_cluster" "by_id" {
  id = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
}

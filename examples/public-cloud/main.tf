# Bring under management a GKE (or AKS, EKS) cluster that Astra Control discovered by
# itself in a public cloud. Nothing is added: the cluster already exists in Astra Control,
# and `terraform destroy` only unmanages it (it stays listed, unmanaged).
#
# The cloud itself is added once per account, for example with
#   resource "astra_cloud" "gcp" { name = "GCP", cloud_type = "gcp", credential_id = ... }

data "astra_clouds" "this" {
  cloud_type = var.cloud_type
}

data "astra_cluster" "this" {
  cloud_id = data.astra_clouds.this.clouds[0].id
  name     = var.cluster_name
}

data "astra_storage_classes" "this" {
  cluster_id = data.astra_cluster.this.id
}

resource "astra_managed_cluster" "this" {
  cluster_id            = data.astra_cluster.this.id
  default_storage_class = data.astra_storage_classes.this.default_storage_class_id
}

# Add a public cloud (GCP, Azure or AWS) with the service account Astra Control uses to
# discover its clusters, then bring one discovered cluster under management. `terraform
# destroy` unmanages the cluster, then removes the cloud and its credential.

# The service account's JSON key file: checked at plan time (for gcp: a service-account
# key file), sent base64-encoded, never shown in plans or logs. With Terraform 1.11+ or
# OpenTofu 1.11+, service_account_json_wo (and a _wo_version) keeps it out of state too.
resource "astra_service_account_credential" "this" {
  name                 = "astra-sa@${var.cloud_name}"
  cloud_type           = var.cloud_type
  service_account_json = file(var.service_account_file)
}

resource "astra_cloud" "this" {
  name          = var.cloud_name
  cloud_type    = var.cloud_type
  credential_id = astra_service_account_credential.this.id
}

# A cluster the cloud discovered through the service account.
data "astra_cluster" "this" {
  cloud_id = astra_cloud.this.id
  name     = var.cluster_name
}

data "astra_storage_classes" "this" {
  cluster_id = data.astra_cluster.this.id
}

resource "astra_managed_cluster" "this" {
  cluster_id            = data.astra_cluster.this.id
  default_storage_class = data.astra_storage_classes.this.default_storage_class_id
}

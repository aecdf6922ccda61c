# A bucket added outside this configuration, by name, as the default bucket of a cloud.
data "astra_bucket" "backups" {
  name = "backups"
}

resource "astra_cloud" "gcp" {
  name              = "GCP"
  cloud_type        = "gcp"
  credential_id     = var.gcp_service_account_credential_id
  default_bucket_id = data.astra_bucket.backups.id
}

# A GCP service account's JSON key file, for a GCP cloud (and gcp buckets).
resource "astra_service_account_credential" "gcp" {
  name                 = "astra-sa@gcp"
  cloud_type           = "gcp"
  service_account_json = file("${path.module}/astra-service-account.json")
}

# The cloud whose clusters Astra Control discovers with it.
resource "astra_cloud" "gcp" {
  name          = "GCP"
  cloud_type    = "gcp"
  credential_id = astra_service_account_credential.gcp.id
}

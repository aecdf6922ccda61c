# A public cloud: Astra Control discovers its Kubernetes clusters with the service account
# of the credential.
resource "astra_cloud" "gcp" {
  name          = "GCP"
  cloud_type    = "gcp"
  credential_id = var.gcp_service_account_credential_id
}

# Terraform 1.11 and later: the key file is sent to Astra Control but never stored in state
# or plan. Bump service_account_json_wo_version whenever the file changes to rotate it.
resource "astra_service_account_credential" "gcp" {
  name                            = "astra-sa@gcp"
  cloud_type                      = "gcp"
  service_account_json_wo         = file("${path.module}/astra-service-account.json")
  service_account_json_wo_version = "2"
}

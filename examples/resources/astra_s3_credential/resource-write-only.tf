# Terraform 1.11 and later: the secret is sent to Astra Control but never stored in state
# or plan. Bump secret_access_key_wo_version whenever the secret changes to rotate it.
resource "astra_s3_credential" "backups" {
  name                         = "backups"
  access_key_id                = var.s3_access_key_id
  secret_access_key_wo         = var.s3_secret_access_key
  secret_access_key_wo_version = "2"
}

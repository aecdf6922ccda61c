# The key pair of an object store's user (ONTAP S3, StorageGRID, AWS or another S3 service),
# for the buckets backups go to.
resource "astra_s3_credential" "backups" {
  name              = "backups"
  access_key_id     = var.s3_access_key_id
  secret_access_key = var.s3_secret_access_key
}

variable "s3_access_key_id" {
  type      = string
  sensitive = true
}

variable "s3_secret_access_key" {
  type      = string
  sensitive = true
}

# An S3 bucket on an ONTAP S3 server, opened with an S3 key pair.
resource "astra_s3_credential" "backups" {
  name              = "backups"
  access_key_id     = var.s3_access_key_id
  secret_access_key = var.s3_secret_access_key
}

resource "astra_bucket" "backups" {
  name            = "backups"
  bucket_provider = "ontap-s3"
  credential_id   = astra_s3_credential.backups.id
  s3 = {
    server_url  = "s3.example.com"
    bucket_name = "astra-backups"
  }

  # When a cloud or managed cluster uses this bucket as its default, Terraform then points
  # them at a new bucket before it destroys this one (by default it destroys first, and
  # Astra Control refuses to forget a default bucket).
  lifecycle {
    create_before_destroy = true
  }
}

# A Google Cloud Storage bucket, opened with the service account of a GCP cloud.
resource "astra_bucket" "gcs" {
  name            = "gcs-backups"
  bucket_provider = "gcp"
  credential_id   = var.gcp_service_account_credential_id
  gcp = {
    bucket_name = "astra-backups-gcs"
  }
}

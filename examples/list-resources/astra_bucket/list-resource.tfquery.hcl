# Terraform 1.14 and later: `terraform query` lists the account's S3 buckets on
# ONTAP, with their state (include_resource), to import them.
list "astra_bucket" "ontap" {
  provider         = astra
  include_resource = true
  config {
    bucket_provider = "ontap-s3"
  }
}

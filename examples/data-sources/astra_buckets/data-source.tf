# Every bucket of the account.
data "astra_buckets" "all" {}

# The S3 buckets on ONTAP that Astra Control can use now.
data "astra_buckets" "ontap" {
  bucket_provider = "ontap-s3"
  state           = "available"
}

output "failed_buckets" {
  value = [for b in data.astra_buckets.all.buckets : "${b.name}: ${join("; ", [for d in b.state_details : d.detail])}" if b.state == "failed"]
}

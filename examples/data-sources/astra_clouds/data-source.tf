# Every cloud of the account.
data "astra_clouds" "all" {}

# Only the private clouds (cloud_type is matched case-insensitively).
data "astra_clouds" "private" {
  cloud_type = "private"
}

output "private_cloud_id" {
  value = data.astra_clouds.private.clouds[0].id
}

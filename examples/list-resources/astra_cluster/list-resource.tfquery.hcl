# Terraform 1.14 and later: `terraform query` lists the clusters of the private cloud
# that are not under management yet, to import them (`terraform query -generate-config-out`).
list "astra_cluster" "unmanaged" {
  provider = astra

  config {
    cloud_id      = "4d1c3b2a-9f8e-4d7c-b6a5-0e1f2d3c4b5a"
    managed_state = "unmanaged"
  }
}

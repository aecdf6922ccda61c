# Terraform 1.14 and later: `terraform query` lists the apps of a managed cluster,
# with their state (include_resource), to import them.
list "astra_app" "prod_east" {
  provider         = astra
  include_resource = true
  config {
    cluster_id = "5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f"
  }
}

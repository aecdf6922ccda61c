# Terraform 1.14 and later: `terraform query` lists every managed cluster of the
# account, with its state (include_resource), to import them.
list "astra_managed_cluster" "all" {
  provider         = astra
  include_resource = true
}

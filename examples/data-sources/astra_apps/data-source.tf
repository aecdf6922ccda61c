# The apps of a managed cluster that no policy protects yet.
data "astra_apps" "unprotected" {
  cluster_id       = astra_managed_cluster.prod_east.id
  protection_state = "none"
}

output "unprotected_apps" {
  value = [for app in data.astra_apps.unprotected.apps : app.name]
}

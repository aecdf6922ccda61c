# Protect a fleet: for every managed cluster of a cloud, the resources labelled
# var.label_selector in the namespaces of var.namespaces that the cluster has become an app,
# snapshotted every hour and backed up every day. A cluster managed later joins the fleet on
# the next apply; one unmanaged leaves it (its app and policies are destroyed first).

# Every managed cluster of the cloud.
data "astra_clusters" "fleet" {
  cloud_id      = var.cloud_id
  managed_state = "managed"
}

locals {
  # Per cluster, the wanted namespaces it has (a cluster with none of them is left out:
  # an app needs at least one namespace).
  fleet = {
    for c in data.astra_clusters.fleet.clusters : c.name => {
      id         = c.id
      namespaces = [for ns in var.namespaces : ns if contains(c.namespaces, ns)]
    }
    if length([for ns in var.namespaces : ns if contains(c.namespaces, ns)]) > 0
  }
}

resource "astra_app" "fleet" {
  for_each = local.fleet

  name       = "${each.key}-${var.app_suffix}"
  cluster_id = each.value.id

  namespace_scoped_resources = [
    for ns in each.value.namespaces : { namespace = ns, label_selectors = [var.label_selector] }
  ]

  labels = { protected-by = "terraform" }
}

resource "astra_protection_policy" "hourly" {
  for_each = astra_app.fleet

  app_id             = each.value.id
  name               = "hourly"
  granularity        = "hourly"
  minute             = 10
  snapshot_retention = var.hourly_snapshots
  backup_retention   = 0
}

resource "astra_protection_policy" "daily" {
  for_each = astra_app.fleet

  app_id             = each.value.id
  name               = "daily"
  granularity        = "daily"
  hour               = 1
  minute             = 30
  snapshot_retention = var.daily_retention
  backup_retention   = var.daily_retention
  bucket_id          = var.bucket_id
}

# The fleet's apps as Astra Control reports them once their policies exist.
data "astra_apps" "fleet" {
  depends_on = [astra_protection_policy.hourly, astra_protection_policy.daily]
}

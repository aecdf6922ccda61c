# Whether production is still managed. Once staging exists it needs nothing of production
# (see ignore_changes below), so staging can still be planned and destroyed after
# production is gone: the backup lookup below is then left out, rather than failing with
# "Unknown app".
data "astra_apps" "all" {}

locals {
  production_exists = contains(data.astra_apps.all.apps[*].id, var.source_app_id)
}

# The newest backup of the production app that completed: a failed or running one is
# never chosen. The plan stops here, saying so, while the app has none.
data "astra_app_backups" "production" {
  count  = local.production_exists ? 1 : 0
  app_id = var.source_app_id
  state  = "completed"

  lifecycle {
    postcondition {
      condition     = self.latest_completed != null
      error_message = "The production app has no completed backup to clone staging from: take one first (an astra_app_backup, or wait for its policy's next backup)."
    }
  }
}

# Staging, cloned from that backup into the staging namespaces. The clone is created
# once: a newer backup does not replace it on the next apply (lifecycle below), so staging
# keeps its data until you ask for a fresh copy (the README says how).
resource "astra_app" "staging" {
  name       = var.staging_app_name
  cluster_id = var.staging_cluster_id
  namespace_scoped_resources = [
    for namespace in values(var.namespace_mapping) : { namespace = namespace }
  ]

  source = {
    app_id    = var.source_app_id
    backup_id = one(data.astra_app_backups.production[*].latest_completed.id)
    namespace_mapping = [
      for source, destination in var.namespace_mapping : { source = source, destination = destination }
    ]
  }

  lifecycle {
    ignore_changes = [source]
  }
}

# Disaster recovery for one app between two clusters Astra Control Center manages, both on
# ONTAP storage (the storage_backends output lists the backends it knows). The README is
# the runbook: fail over, reverse, resync, fail back.

data "astra_storage_backends" "all" {
  cluster_id = var.production_cluster_id
}

# The app, on the production cluster.
resource "astra_app" "web" {
  name                       = var.app_name
  cluster_id                 = var.production_cluster_id
  namespace_scoped_resources = [for namespace in var.namespaces : { namespace = namespace }]
}

locals {
  # After a REVERSE done by argument (OpenTofu, Terraform before 1.14), set this to the ID
  # of the app on the disaster-recovery cluster (the mirror's destination_app_id before the
  # reverse): the relationship then replicates from it back to production. Leave it null
  # with the astra_app_mirror_reverse action: the action keeps this configuration as is.
  reversed_source_app_id = null
  reversed               = local.reversed_source_app_id != null
}

# The replication relationship. Create waits until it is established.
resource "astra_app_mirror" "web" {
  source_app_id          = local.reversed ? local.reversed_source_app_id : astra_app.web.id
  destination_cluster_id = local.reversed ? var.production_cluster_id : var.dr_cluster_id
  namespace_mapping      = [for namespace in var.namespaces : { source = namespace, destination = namespace }]

  # FAILOVER: change to "failed_over" and apply (README, "Fail over"). Back to
  # "established" is a resync that OVERWRITES the failed-over app: read the plan's warning.
  desired_state = "established"

  timeouts = {
    create = "2h"
  }
}

# Replication every 5 minutes: each snapshot of this policy is replicated to the other
# cluster. It needs the relationship first (depends_on), as Astra Control replicates
# nothing for an app without one.
resource "astra_protection_policy" "replication" {
  app_id             = astra_app.web.id
  name               = "replication-every-5-minutes"
  granularity        = "custom"
  interval_minutes   = 5
  replicate          = true
  snapshot_retention = 2
  backup_retention   = 0

  depends_on = [astra_app_mirror.web]
}

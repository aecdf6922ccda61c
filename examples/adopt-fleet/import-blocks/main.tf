# Prints an import block for every cluster of one cloud, the kubeconfig credentials they
# use and the management of the managed ones, the service-account credentials of the
# account's public clouds, the S3 credentials named by s3_credential_ids, every bucket of
# the account, and the apps of the managed clusters with their protection policies.
# Nothing here is written to Astra Control.

data "astra_cloud" "this" {
  name = var.cloud_name

  lifecycle {
    # astra_cluster registers private clusters; in a public cloud (GKE, AKS, EKS), adopt
    # only the management of the clusters Astra Control discovered (astra_managed_cluster).
    postcondition {
      condition     = lower(self.cloud_type) == "private"
      error_message = "cloud_name must name a private cloud: public-cloud clusters are adopted with astra_managed_cluster alone (see the guide Adopting existing clusters)."
    }
  }
}

# Every cloud of the account: a public cloud names its service-account credential.
data "astra_clouds" "all" {}

data "astra_clusters" "all" {
  cloud_id = data.astra_cloud.this.id
}

# The account's buckets, where backups go.
data "astra_buckets" "all" {}

# The account's apps; those of the managed clusters above are adopted.
data "astra_apps" "all" {}

locals {
  # A resource name per cluster, from its Astra name: letters, digits, "-" and "_", not
  # starting with a digit.
  names = {
    for c in data.astra_clusters.all.clusters :
    c.id => replace(can(regex("^[A-Za-z_]", c.name)) ? c.name : "_${c.name}", "/[^A-Za-z0-9_-]/", "_")
  }
  # A credential shared by several clusters is imported once, named after the first of them.
  credentials = {
    for c in data.astra_clusters.all.clusters : c.credential_id => local.names[c.id]... if c.credential_id != null
  }
  managed = { for c in data.astra_clusters.all.clusters : c.id => local.names[c.id] if c.managed_state == "managed" }
  apps    = { for a in data.astra_apps.all.apps : a.id => a if contains(keys(local.managed), a.cluster_id) }
}

# Each adopted app's protection policies (its schedules).
data "astra_protection_policies" "this" {
  for_each = local.apps

  app_id = each.key
}

# The account's scripts, less NetApp's preloaded ones (read only); the adopted apps'
# execution hooks; and their completed snapshots and backups taken on demand, never a
# policy's (its retention deletes them, and the plan would then create them again).
data "astra_hook_sources" "all" {}

data "astra_execution_hooks" "this" {
  for_each = local.apps

  app_id = each.key
}

data "astra_app_snapshots" "this" {
  for_each = local.apps

  app_id    = each.key
  on_demand = true
  state     = "completed"
}

data "astra_app_backups" "this" {
  for_each = local.apps

  app_id    = each.key
  on_demand = true
  state     = "completed"
}

output "import_blocks" {
  description = "Import blocks for every object to adopt: write them to a .tf file and run `plan -generate-config-out=generated.tf`."
  value = templatefile("${path.module}/imports.tftpl", {
    credentials = { for id, names in local.credentials : id => names[0] }
    clusters    = { for c in data.astra_clusters.all.clusters : c.id => local.names[c.id] }
    managed     = local.managed
    service_accounts = {
      for c in data.astra_clouds.all.clouds : c.credential_id => "sa_${replace(c.name, "/[^A-Za-z0-9_-]/", "_")}"
      if c.cloud_type != "private" && c.credential_id != null
    }
    s3_credentials = { for i, id in sort(var.s3_credential_ids) : id => "s3_${i}" }
    # A bucket's resource name is "bucket_" and its ID (names need not be unique).
    buckets = { for b in data.astra_buckets.all.buckets : b.id => "bucket_${replace(b.id, "-", "_")}" }
    # An app's is "app_" and its ID; a policy's "policy_" and its ID, imported as
    # "<app_id>/<id>". A custom schedule (a recurrence rule) has no astra_protection_policy
    # granularity: it is left to Astra Control.
    apps = { for id, a in local.apps : id => "app_${replace(id, "-", "_")}" }
    policies = merge([
      for p in data.astra_protection_policies.this : {
        for s in p.policies : "${s.app_id}/${s.id}" => "policy_${replace(s.id, "-", "_")}" if s.granularity != "custom"
      }
    ]...)
    # "script_", "hook_", "snapshot_" and "backup_" and the ID; snapshots and backups are
    # imported as "<app_id>/<id>".
    hook_sources    = { for s in data.astra_hook_sources.all.hook_sources : s.id => "script_${replace(s.id, "-", "_")}" if !s.preloaded }
    execution_hooks = merge([for h in data.astra_execution_hooks.this : { for x in h.hooks : x.id => "hook_${replace(x.id, "-", "_")}" }]...)
    snapshots       = merge([for l in data.astra_app_snapshots.this : { for s in l.snapshots : "${s.app_id}/${s.id}" => "snapshot_${replace(s.id, "-", "_")}" }]...)
    backups         = merge([for l in data.astra_app_backups.this : { for b in l.backups : "${b.app_id}/${b.id}" => "backup_${replace(b.id, "-", "_")}" }]...)
  })
}

# Adopts every cluster of one cloud as it is in Astra Control, with the kubeconfig
# credentials the clusters use and the management of the managed ones, the service-account
# credentials of the account's public clouds, the S3 credentials named by s3_credential_ids,
# the account's buckets, the apps of the managed clusters with their protection policies,
# execution hooks and on-demand snapshots and backups, and the account's own scripts (hook
# sources): the first plan shows only imports, and the apply sends nothing to Astra Control.

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

data "astra_clusters" "all" {
  cloud_id = data.astra_cloud.this.id
}

locals {
  # Keyed by name (unique within a cloud), so addresses read astra_cluster.this["prod-east"].
  clusters = { for c in data.astra_clusters.all.clusters : c.name => c }
  managed  = { for name, c in local.clusters : name => c if c.managed_state == "managed" }
  # Each credential once, even when several clusters share it. Clusters registered through
  # an Astra Connector have none.
  credentials = toset([for c in local.clusters : c.credential_id if c.credential_id != null])
}

import {
  for_each = local.credentials
  to       = astra_kubeconfig_credential.this[each.key]
  id       = each.key
}

# Astra Control never returns a kubeconfig, so an imported credential leaves it out and keeps
# the one Astra Control holds (its name is read back too). To rotate one later, add
#   kubeconfig_wo         = file("kubeconfigs/${each.key}.yaml")
#   kubeconfig_wo_version = "1"
# (or kubeconfig = file(...) before Terraform 1.11): that apply updates it in place.
resource "astra_kubeconfig_credential" "this" {
  for_each = local.credentials
}

import {
  for_each = local.clusters
  to       = astra_cluster.this[each.key]
  id       = each.value.id
}

resource "astra_cluster" "this" {
  for_each = local.clusters

  cloud_id      = data.astra_cloud.this.id
  name          = each.key
  credential_id = each.value.credential_id == null ? null : astra_kubeconfig_credential.this[each.value.credential_id].id
  # What Astra Control reports, as it is: a cluster registered through an Astra Connector
  # keeps its route and capabilities, the cluster hosting Astra Control Center its acc_host.
  private_route_id       = each.value.private_route_id
  connector_capabilities = each.value.connector_capabilities
  acc_host               = each.value.acc_host
  labels                 = each.value.labels
}

import {
  for_each = local.managed
  to       = astra_managed_cluster.this[each.key]
  id       = each.value.id
}

# The storage class, Trident and bucket settings are read back as Astra Control has them.
resource "astra_managed_cluster" "this" {
  for_each = local.managed

  cluster_id = astra_cluster.this[each.key].id
}

# Every cloud of the account: a public cloud (GCP, Azure, AWS) names its service-account
# credential.
data "astra_clouds" "all" {}

locals {
  service_account_credentials = toset([
    for c in data.astra_clouds.all.clouds : c.credential_id if c.cloud_type != "private" && c.credential_id != null
  ])
}

import {
  for_each = local.service_account_credentials
  to       = astra_service_account_credential.this[each.key]
  id       = each.key
}

# Like a kubeconfig credential, its key file is never returned: an imported credential
# leaves it out and keeps the one Astra Control holds; name and cloud_type are read back.
# To rotate it later, add service_account_json_wo (with a _wo_version) or
# service_account_json: that apply updates it in place.
resource "astra_service_account_credential" "this" {
  for_each = local.service_account_credentials
}

import {
  for_each = var.s3_credential_ids
  to       = astra_s3_credential.this[each.key]
  id       = each.key
}

# The key pair is never returned either: adopted without access_key_id and the secret,
# which keeps the pair Astra Control holds; set both later to rotate it (one update).
resource "astra_s3_credential" "this" {
  for_each = var.s3_credential_ids
}

# The account's buckets, where backups go, as Astra Control has them (keyed by ID: bucket
# names need not be unique). Their credentials keep the IDs Astra Control holds.
data "astra_buckets" "all" {}

locals {
  buckets = { for b in data.astra_buckets.all.buckets : b.id => b }
}

import {
  for_each = local.buckets
  to       = astra_bucket.this[each.key]
  id       = each.key
}

resource "astra_bucket" "this" {
  for_each = local.buckets

  name            = each.value.name
  bucket_provider = each.value.bucket_provider
  credential_id   = each.value.credential_id
  s3              = each.value.s3
  gcp             = each.value.gcp
  azure           = each.value.azure
}

# The apps of the adopted managed clusters, keyed "<cluster>/<app>" (an app's name is
# unique on its cluster), so addresses read astra_app.this["prod-east/web"].
data "astra_apps" "all" {}

locals {
  managed_names = { for name, c in local.managed : c.id => name }
  apps = {
    for a in data.astra_apps.all.apps : "${local.managed_names[a.cluster_id]}/${a.name}" => a
    if contains(keys(local.managed_names), a.cluster_id)
  }
}

import {
  for_each = local.apps
  to       = astra_app.this[each.key]
  id       = each.value.id
}

# The scope is what Astra Control reports. namespace_scoped_resources,
# cluster_scoped_resources and their label_selectors are sets: the order Astra Control
# lists them in is never a change.
resource "astra_app" "this" {
  for_each = local.apps

  name                       = each.value.name
  cluster_id                 = astra_managed_cluster.this[local.managed_names[each.value.cluster_id]].id
  namespace_scoped_resources = each.value.namespace_scoped_resources
  cluster_scoped_resources   = each.value.cluster_scoped_resources
  labels                     = each.value.labels
}

# Each app's protection policies (its schedules), read by the app's ID: the data source
# takes nothing Terraform creates, so it is read at plan time and the imports are known.
data "astra_protection_policies" "this" {
  for_each = local.apps

  app_id = each.value.id
}

locals {
  # Keyed by the import ID "<app_id>/<id>" (policy names need not be unique), with the
  # app's key beside each. A custom schedule (a recurrence rule, which NetApp's toolkit can
  # make) has no astra_protection_policy granularity: it is left to Astra Control.
  policies = merge([
    for app, p in data.astra_protection_policies.this : {
      for s in p.policies : "${s.app_id}/${s.id}" => merge(s, { app = app }) if s.granularity != "custom"
    }
  ]...)
}

import {
  for_each = local.policies
  to       = astra_protection_policy.this[each.key]
  id       = each.key
}

# Every argument as Astra Control reports it; a number the granularity does not use is null.
resource "astra_protection_policy" "this" {
  for_each = local.policies

  app_id             = astra_app.this[each.value.app].id
  name               = each.value.name
  granularity        = each.value.granularity
  minute             = each.value.minute
  hour               = each.value.hour
  day_of_week        = each.value.day_of_week
  day_of_month       = each.value.day_of_month
  snapshot_retention = each.value.snapshot_retention
  backup_retention   = each.value.backup_retention
  # A policy that names no bucket backs up where Astra Control chooses: null keeps it so.
  bucket_id = each.value.bucket_id == null ? null : astra_bucket.this[each.value.bucket_id].id
  enabled   = each.value.enabled
}

# The account's scripts, less the ones NetApp preloads: those are read only (Astra Control
# refuses to change them, problem 71) and come with every account, so they stay Astra
# Control's. Keyed by ID.
data "astra_hook_sources" "all" {}

locals {
  hook_sources = { for s in data.astra_hook_sources.all.hook_sources : s.id => s if !s.preloaded }
}

import {
  for_each = local.hook_sources
  to       = astra_hook_source.this[each.key]
  id       = each.key
}

# The script itself is left out: an imported hook source keeps the one Astra Control holds
# (read into the sensitive source). To change it later, set source = file(...).
resource "astra_hook_source" "this" {
  for_each = local.hook_sources

  name        = each.value.name
  description = each.value.description
}

# The execution hooks of the adopted apps, keyed by ID. A hook that runs one of NetApp's
# preloaded scripts names that script by its ID.
data "astra_execution_hooks" "this" {
  for_each = local.apps

  app_id = each.value.id
}

locals {
  execution_hooks = merge([
    for app, h in data.astra_execution_hooks.this : { for x in h.hooks : x.id => merge(x, { app = app }) }
  ]...)
}

import {
  for_each = local.execution_hooks
  to       = astra_execution_hook.this[each.key]
  id       = each.key
}

resource "astra_execution_hook" "this" {
  for_each = local.execution_hooks

  app_id            = astra_app.this[each.value.app].id
  name              = each.value.name
  action            = each.value.action
  stage             = each.value.stage
  hook_source_id    = contains(keys(local.hook_sources), each.value.hook_source_id) ? astra_hook_source.this[each.value.hook_source_id].id : each.value.hook_source_id
  arguments         = each.value.arguments
  description       = each.value.description
  enabled           = each.value.enabled
  matching_criteria = each.value.matching_criteria
}

# The snapshots and backups taken on demand (by hand, an action or an astra_app_snapshot or
# astra_app_backup elsewhere), completed, keyed by the import ID "<app_id>/<id>". Never a
# policy's (on_demand = true leaves them out): its retention deletes them, and the next plan
# would then create them again as on-demand ones.
data "astra_app_snapshots" "this" {
  for_each = local.apps

  app_id    = each.value.id
  on_demand = true
  state     = "completed"
}

data "astra_app_backups" "this" {
  for_each = local.apps

  app_id    = each.value.id
  on_demand = true
  state     = "completed"
}

locals {
  snapshots = merge([
    for app, l in data.astra_app_snapshots.this : { for s in l.snapshots : "${s.app_id}/${s.id}" => merge(s, { app = app }) }
  ]...)
  backups = merge([
    for app, l in data.astra_app_backups.this : { for b in l.backups : "${b.app_id}/${b.id}" => merge(b, { app = app }) }
  ]...)
}

import {
  for_each = local.snapshots
  to       = astra_app_snapshot.this[each.key]
  id       = each.key
}

# bucket_id and a backup's snapshot_id are left out: they keep what Astra Control reports.
resource "astra_app_snapshot" "this" {
  for_each = local.snapshots

  app_id = astra_app.this[each.value.app].id
  name   = each.value.name
}

import {
  for_each = local.backups
  to       = astra_app_backup.this[each.key]
  id       = each.key
}

resource "astra_app_backup" "this" {
  for_each = local.backups

  app_id = astra_app.this[each.value.app].id
  name   = each.value.name
}

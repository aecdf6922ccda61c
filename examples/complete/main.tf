# Register a private Kubernetes cluster with Astra Control, bring it under management, say
# where its backups go and protect one of its namespaces: kubeconfig credential -> cluster in
# the private cloud -> managed cluster with a default storage class chosen from the
# cluster's own, and an S3 bucket (with its key pair) as its default bucket -> an app and
# its hourly and daily protection policies, and a baseline backup that makes it fully
# protected. `terraform destroy` undoes it in the reverse order the references give: delete
# the backup and the policies, delete the app's other backups and unmanage it, unmanage the
# cluster, forget the bucket, remove the cluster, then delete the credentials.
#
# A managed cluster's default bucket needs the managed-cluster API version 1.7 (Astra
# Control 24.02 and later): versions.tf sets api_version = "1.7".

# Clusters reached with a kubeconfig go to the account's private cloud.
data "astra_clouds" "private" {
  cloud_type = "private"
}

locals {
  kubeconfig_path  = coalesce(var.kubeconfig_path, "${path.module}/kubeconfig.yaml")
  private_cloud_id = data.astra_clouds.private.clouds[0].id
}

# With Terraform 1.11 or later, `kubeconfig_wo` (plus `kubeconfig_wo_version`) keeps the
# kubeconfig out of state; `kubeconfig` works with every CLI and is marked sensitive.
resource "astra_kubeconfig_credential" "this" {
  name       = var.cluster_name
  kubeconfig = file(local.kubeconfig_path)
}

resource "astra_cluster" "this" {
  cloud_id      = local.private_cloud_id
  name          = var.cluster_name
  credential_id = astra_kubeconfig_credential.this.id
  labels        = var.labels
  # Astra Control gives a managed cluster a default bucket only with this capability.
  connector_capabilities = ["neptuneV1"]
}

# Where backups go: an S3 bucket (ONTAP S3, StorageGRID or any S3 service) and the key pair
# Astra Control opens it with. The secret is sensitive; with Terraform 1.11+ or OpenTofu
# 1.11+, secret_access_key_wo (plus secret_access_key_wo_version) keeps it out of state.
resource "astra_s3_credential" "backups" {
  name              = "${var.cluster_name}-backups"
  access_key_id     = var.s3_access_key_id
  secret_access_key = var.s3_secret_access_key
}

# Created, then waited for until Astra Control reached it (state "available").
resource "astra_bucket" "backups" {
  name            = "${var.cluster_name}-backups"
  bucket_provider = var.s3_provider
  credential_id   = astra_s3_credential.backups.id
  s3 = {
    server_url  = var.s3_server_url
    bucket_name = var.s3_bucket_name
  }
  # A new bucket is then set as the default before the old one is forgotten: Astra Control
  # refuses to forget a default bucket.
  lifecycle {
    create_before_destroy = true
  }
}

# The storage classes Astra Control found on the cluster.
data "astra_storage_classes" "this" {
  cluster_id = astra_cluster.this.id
}

locals {
  storage_class_ids = { for sc in data.astra_storage_classes.this.storage_classes : sc.name => sc.id }
  # A name the cluster does not have passes through unchanged, so the provider's plan-time
  # check reports it together with the valid storage classes.
  default_storage_class = (var.storage_class_name == null
    ? data.astra_storage_classes.this.default_storage_class_id
  : lookup(local.storage_class_ids, var.storage_class_name, var.storage_class_name))
}

resource "astra_managed_cluster" "this" {
  cluster_id            = astra_cluster.this.id
  default_storage_class = local.default_storage_class
  default_bucket_id     = astra_bucket.backups.id
}

# One of the cluster's namespaces becomes an app Astra Control protects. Create waits until
# Astra Control has discovered it (ready). Destroy unmanages it before the cluster is, and
# (delete_backups_on_destroy) first deletes its backups, the daily policy's included: Astra
# Control keeps an unmanaged app's backups in their bucket, which could then not be
# forgotten. The app is destroyed before the bucket, through the managed cluster.
resource "astra_app" "this" {
  name       = var.app_name
  cluster_id = astra_managed_cluster.this.id

  namespace_scoped_resources = [{ namespace = var.protected_namespace }]
  delete_backups_on_destroy  = var.delete_backups_on_destroy
}

# A snapshot every hour, keeping a day of them.
resource "astra_protection_policy" "hourly" {
  app_id             = astra_app.this.id
  name               = "hourly"
  granularity        = "hourly"
  minute             = 0
  snapshot_retention = 24
  backup_retention   = 0
}

# A snapshot and a backup every day at 02:00 UTC, keeping a week of each, the backups in
# the bucket above.
resource "astra_protection_policy" "daily" {
  app_id             = astra_app.this.id
  name               = "daily"
  granularity        = "daily"
  hour               = 2
  minute             = 0
  snapshot_retention = 7
  backup_retention   = 7
  bucket_id          = astra_bucket.backups.id
}

# A backup taken now into the bucket, and kept by name until it is removed from the
# configuration: the app's baseline, before anything changes. Create waits until it is
# completed. Astra Control calls an app fully protected only with an enabled policy that
# takes backups and a completed backup less than a week old: until this backup (or the
# daily policy's first, at 02:00 UTC) exists, the policies alone leave the app "partial".
resource "astra_app_backup" "baseline" {
  count = var.baseline_backup ? 1 : 0

  app_id    = astra_app.this.id
  name      = "${var.app_name}-baseline"
  bucket_id = astra_bucket.backups.id

  depends_on = [astra_protection_policy.hourly, astra_protection_policy.daily]
}

# The app as Astra Control reports it once its policies and its baseline backup exist (read
# after them), for the outputs: "protected" with the backup, "partial" without.
data "astra_apps" "this" {
  cluster_id = astra_managed_cluster.this.id
  name       = astra_app.this.name

  depends_on = [astra_protection_policy.hourly, astra_protection_policy.daily, astra_app_backup.baseline]
}

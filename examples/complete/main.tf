# Register a private Kubernetes cluster with Astra Control, bring it under management and
# say where its backups go: kubeconfig credential -> cluster in the private cloud -> managed
# cluster with a default storage class chosen from the cluster's own, and an S3 bucket
# (with its key pair) as its default bucket. `terraform destroy` undoes it in the reverse
# order the references give: unmanage, forget the bucket, remove the cluster, then delete
# the credentials.
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

# Register a private Kubernetes cluster with Astra Control and bring it under management:
# kubeconfig credential -> cluster in the private cloud -> managed cluster with a default
# storage class chosen from the cluster's own. `terraform destroy` undoes it in the reverse
# order the references give: unmanage, remove the cluster, then delete the credential.

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
}

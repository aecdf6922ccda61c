# Tests of this configuration, run by `tofu test` (or `terraform test`, Terraform 1.6+)
# against the Astra Control simulator, which seeds a GCP, an Azure and an AWS cloud, each
# with a cluster that can be managed (gke-prod, aks-prod, eks-prod). Start
#   astra-sim -addr 127.0.0.1:0 -ready-file astra-sim.env &
# export the ASTRA_* variables it writes, then run the test.

# A plan alone: the discovered cluster is found, not yet managed.
run "plan_finds_the_discovered_cluster" {
  command = plan

  assert {
    condition     = data.astra_cluster.this.name == "gke-prod" && data.astra_cluster.this.cluster_type == "gke"
    error_message = "Expected the GKE cluster gke-prod, got ${data.astra_cluster.this.name} (${data.astra_cluster.this.cluster_type})."
  }
  assert {
    condition     = data.astra_cluster.this.managed_state == "unmanaged"
    error_message = "The discovered cluster should be unmanaged before apply, got ${data.astra_cluster.this.managed_state}."
  }
}

# Apply: the cluster is managed, running, with its default storage class.
run "apply_manages_the_cluster" {
  assert {
    condition     = output.cluster.state == "running" && output.cluster.managed_state == "managed"
    error_message = "The cluster should be running and managed, got ${output.cluster.state}/${output.cluster.managed_state}."
  }
  assert {
    condition     = astra_managed_cluster.this.trident_version != null && astra_managed_cluster.this.trident_version != ""
    error_message = "The managed cluster should report its Trident version."
  }
  assert {
    condition     = astra_managed_cluster.this.default_storage_class == one([for sc in data.astra_storage_classes.this.storage_classes : sc.id if sc.is_default])
    error_message = "The cluster's own default storage class should be chosen."
  }
}

# Another cloud: the GKE cluster is unmanaged, the AKS one managed in its place.
run "switch_to_azure" {
  variables {
    cloud_type   = "azure"
    cluster_name = "aks-prod"
    gke_id       = run.apply_manages_the_cluster.cluster.id
  }

  assert {
    condition     = output.cluster.name == "aks-prod" && output.cluster.cluster_type == "aks" && output.cluster.managed_state == "managed"
    error_message = "Expected aks-prod managed, got ${jsonencode(output.cluster)}."
  }
  assert {
    condition     = output.cluster.id != var.gke_id
    error_message = "A cluster of another cloud is another managed cluster."
  }
}

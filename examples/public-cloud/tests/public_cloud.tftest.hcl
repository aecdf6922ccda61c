# Tests of this configuration, run by `tofu test` (or `terraform test`, Terraform 1.6+)
# against the Astra Control simulator, where a public cloud added with a service-account
# credential discovers a cluster that can be managed (gke-prod, aks-prod, eks-prod). Start
#   astra-sim -addr 127.0.0.1:0 -ready-file astra-sim.env &
# export the ASTRA_* variables it writes, then run the test.

variables {
  service_account_file = "tests/fake-service-account.json"
}

# A plan alone: the credential and the cloud are to be added (the cluster is found once
# the cloud exists).
run "plan_adds_the_credential_and_the_cloud" {
  command = plan

  assert {
    condition     = astra_service_account_credential.this.cloud_type == "gcp" && astra_cloud.this.cloud_type == "gcp"
    error_message = "Expected a gcp credential and cloud."
  }
}

# Apply: the credential and the cloud are added, the discovered cluster is managed,
# running, with its default storage class.
run "apply_manages_the_cluster" {
  assert {
    condition     = data.astra_cluster.this.name == "gke-prod" && data.astra_cluster.this.cluster_type == "gke" && data.astra_cluster.this.cloud_id == output.cloud_id
    error_message = "Expected the GKE cluster gke-prod of the new cloud, got ${data.astra_cluster.this.name} (${data.astra_cluster.this.cluster_type})."
  }
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

# Another cloud: the GKE cluster is unmanaged, its cloud and credential replaced by Azure
# ones, and the AKS cluster managed in its place.
run "switch_to_azure" {
  variables {
    cloud_type   = "azure"
    cloud_name   = "azure-backups"
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

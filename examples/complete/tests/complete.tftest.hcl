# Tests of this configuration, run by `tofu test` (or `terraform test`, Terraform 1.6+)
# against the Astra Control simulator: start it in this directory with
#   astra-sim -addr 127.0.0.1:0 -kubeconfig-out kubeconfig.yaml -ready-file astra-sim.env &
# export the ASTRA_* variables it writes there, then run the test. The guide "Testing
# modules with the simulator" explains each step.

# A plan alone: the private cloud is found and the inputs reach the resources.
run "plan_finds_the_private_cloud" {
  command = plan

  assert {
    condition     = length(data.astra_clouds.private.clouds) == 1 && data.astra_clouds.private.clouds[0].cloud_type == "private"
    error_message = "Expected exactly one private cloud, got ${jsonencode(data.astra_clouds.private.clouds)}."
  }
  assert {
    condition     = astra_cluster.this.name == "complete-example" && astra_kubeconfig_credential.this.name == "complete-example"
    error_message = "The cluster and its credential should be named after var.cluster_name."
  }
}

# Apply without the baseline backup: the cluster is added, waited for until running, and
# brought under management with the cluster's own default storage class; the app's
# policies alone make it partially protected.
run "apply_manages_the_cluster" {
  variables {
    baseline_backup = false
  }

  assert {
    condition     = astra_cluster.this.state == "running"
    error_message = "The cluster should be running once applied, got ${astra_cluster.this.state}."
  }
  assert {
    condition     = output.managed.state == "running" && output.managed.managed_state == "managed"
    error_message = "The cluster should be running and managed, got ${output.managed.state}/${output.managed.managed_state}."
  }
  assert {
    condition     = astra_bucket.backups.state == "available" && astra_managed_cluster.this.default_bucket_id == astra_bucket.backups.id
    error_message = "The bucket should be available and the managed cluster's default bucket, got ${astra_bucket.backups.state}."
  }
  assert {
    condition     = output.managed.trident_version != null && output.managed.trident_version != ""
    error_message = "The managed cluster should report its Trident version."
  }
  assert {
    condition = (
      astra_managed_cluster.this.default_storage_class == data.astra_storage_classes.this.default_storage_class_id &&
      output.default_storage_class.name == one([for sc in data.astra_storage_classes.this.storage_classes : sc.name if sc.is_default])
    )
    error_message = "Without storage_class_name, the cluster's Kubernetes default should be chosen, got ${jsonencode(output.default_storage_class)}."
  }
  assert {
    condition     = output.app.state == "ready" && output.app.protection_state == "partial"
    error_message = "The app should be ready and partially protected by its policies (no backup yet), got ${output.app.state}/${output.app.protection_state}."
  }
}

# Apply with the baseline backup: it completes into the bucket, and a completed backup under
# a week old with a policy that takes backups makes the app fully protected.
run "a_backup_protects_the_app" {
  assert {
    condition     = output.baseline_backup.state == "completed" && output.baseline_backup.in_bucket_id == astra_bucket.backups.id
    error_message = "The baseline backup should be completed in the bucket, got ${jsonencode(output.baseline_backup)}."
  }
  assert {
    condition     = output.app.protection_state == "protected"
    error_message = "The app should be protected once its backup completed, got ${output.app.protection_state}."
  }
}

# A label change is planned as an update in place: a replacement would plan a new cluster,
# whose ID is unknown until applied, and the first assertion could not be evaluated.
# (Assertions read an earlier run's outputs through a test variable.)
run "label_change_is_planned_in_place" {
  command = plan

  variables {
    labels     = { managed-by = "terraform", team = "storage" }
    applied_id = run.a_backup_protects_the_app.cluster.id
  }

  assert {
    condition     = astra_cluster.this.id == var.applied_id
    error_message = "A label change must not replace the cluster."
  }
  assert {
    condition     = astra_cluster.this.labels == tomap({ managed-by = "terraform", team = "storage" })
    error_message = "The plan should carry the new labels, got ${jsonencode(astra_cluster.this.labels)}."
  }
}

# Choosing another storage class by name updates the managed cluster in place.
run "another_default_storage_class" {
  variables {
    storage_class_name = "ontap-silver"
    applied_id         = run.a_backup_protects_the_app.cluster_id
  }

  assert {
    condition     = output.default_storage_class.name == "ontap-silver"
    error_message = "The default storage class should now be ontap-silver, got ${jsonencode(output.default_storage_class)}."
  }
  assert {
    condition     = output.cluster_id == var.applied_id
    error_message = "Changing the default storage class must not replace the managed cluster."
  }
}

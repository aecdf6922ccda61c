# Tests of this configuration, run by `tofu test` (or `terraform test`, Terraform 1.6+)
# against the Astra Control simulator, as examples/complete's are: start the simulator in
# this directory with
#   astra-sim -addr 127.0.0.1:0 -release 24.02 -kubeconfig-out kubeconfig.yaml -ready-file astra-sim.env &
# export the ASTRA_* variables it writes there, then run the test. The first run builds the
# estate of examples/complete (a sibling directory); the next ones render it.

run "estate" {
  module {
    source = "../complete"
  }

  variables {
    # The simulator's kubeconfig, beside this configuration.
    kubeconfig_path = "kubeconfig.yaml"
  }
}

# The whole managed cluster: the bucket's AppVault, the app's Application and a Schedule
# per policy. The objects are sensitive (an ExecHook would carry its script): the error
# messages show these, which carry none, with nonsensitive.
run "render_the_cluster" {
  variables {
    cluster_id = run.estate.cluster_id
  }

  # The hourly policy names no bucket: the check reports the warning.
  expect_failures = [check.trident_protect_mapping]

  assert {
    condition = [for m in data.astra_trident_protect_manifests.estate.manifests : m.key] == [
      "AppVault.trident-protect.complete-example-backups",
      "Application.default.complete-example-050d41",
      "Schedule.default.complete-example-daily",
      "Schedule.default.complete-example-hourly",
    ]
    error_message = "Unexpected resources: ${jsonencode([for m in data.astra_trident_protect_manifests.estate.manifests : m.key])}."
  }
  assert {
    condition = output.trident_protect_objects["AppVault.trident-protect.complete-example-backups"].spec == {
      providerType   = "GenericS3"
      providerConfig = { s3 = { bucketName = "astra-backups", endpoint = "s3.example.com" } }
      providerCredentials = {
        accessKeyID     = { valueFromSecret = { name = "complete-example-backups-credentials", key = "accessKeyID" } }
        secretAccessKey = { valueFromSecret = { name = "complete-example-backups-credentials", key = "secretAccessKey" } }
      }
    }
    error_message = "The bucket's AppVault: ${nonsensitive(jsonencode(output.trident_protect_objects["AppVault.trident-protect.complete-example-backups"]))}."
  }
  assert {
    condition = output.trident_protect_objects["Application.default.complete-example-050d41"].spec == {
      includedNamespaces = [{ namespace = "default" }]
    }
    error_message = "The app's Application: ${nonsensitive(jsonencode(output.trident_protect_objects["Application.default.complete-example-050d41"]))}."
  }
  assert {
    condition = output.trident_protect_objects["Schedule.default.complete-example-daily"].spec == {
      applicationRef      = "complete-example-050d41"
      appVaultRef         = "complete-example-backups"
      granularity         = "Daily"
      hour                = "2"
      minute              = "0"
      snapshotRetention   = "7"
      backupRetention     = "7"
      enabled             = true
      backupReclaimPolicy = "Retain"
    }
    error_message = "The daily Schedule: ${nonsensitive(jsonencode(output.trident_protect_objects["Schedule.default.complete-example-daily"]))}."
  }
  # Without a bucket, the hourly policy's Schedule goes to the default bucket's AppVault.
  assert {
    condition = (
      output.trident_protect_objects["Schedule.default.complete-example-hourly"].spec.appVaultRef == "complete-example-backups" &&
      output.trident_protect_objects["Schedule.default.complete-example-hourly"].spec.granularity == "Hourly" &&
      length(output.trident_protect_warnings) == 1 &&
      startswith(output.trident_protect_warnings[0], "protection policy \"hourly\"")
    )
    error_message = "The hourly Schedule and its warning: ${jsonencode(output.trident_protect_warnings)}."
  }
  assert {
    # Compared as JSON: the keys are a list, the literal a tuple.
    condition = jsonencode(output.trident_protect_secrets) == jsonencode({
      complete-example-backups-credentials = {
        namespace  = "trident-protect"
        keys       = ["accessKeyID", "secretAccessKey"]
        purpose    = output.trident_protect_secrets["complete-example-backups-credentials"].purpose
        bucket     = "complete-example-backups"
        credential = "complete-example-backups"
      }
    })
    error_message = "The Secrets to create: ${jsonencode(output.trident_protect_secrets)}."
  }
  # The YAML holds every resource, and no credential value is anywhere.
  assert {
    condition = (
      length(regexall("(?m)^---$", output.trident_protect_yaml)) == 4 &&
      !strcontains(jsonencode(data.astra_trident_protect_manifests.estate), "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") &&
      output.trident_protect_release != ""
    )
    error_message = "The YAML stream, or a credential value in the rendering."
  }
}

# One app, into another Trident protect namespace, with the repository passwords' Secret.
run "render_one_app" {
  variables {
    app_id                     = run.estate.app.id
    protect_namespace          = "protect"
    data_mover_password_secret = "repository-passwords"
  }

  expect_failures = [check.trident_protect_mapping]

  assert {
    condition = (
      output.trident_protect_objects["AppVault.protect.complete-example-backups"].spec.dataMoverPasswordSecretRef == "repository-passwords" &&
      output.trident_protect_objects["Application.default.complete-example-050d41"].metadata.namespace == "default" &&
      output.trident_protect_secrets["repository-passwords"].keys == tolist(["KOPIA_PASSWORD", "RESTIC_PASSWORD"]) &&
      output.trident_protect_secrets["complete-example-backups-credentials"].namespace == "protect"
    )
    error_message = "The app's rendering: ${jsonencode(output.trident_protect_secrets)}."
  }
  assert {
    condition     = tolist(keys(output.trident_protect_files)) == sort([for m in data.astra_trident_protect_manifests.estate.manifests : "${m.key}.yaml"])
    error_message = "One file per resource: ${nonsensitive(jsonencode(keys(output.trident_protect_files)))}."
  }
}

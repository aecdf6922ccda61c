# Every app of a managed cluster, as Trident protect custom resources.
data "astra_trident_protect_manifests" "prod_east" {
  cluster_id = astra_managed_cluster.prod_east.id

  # Optional: the Secret holding the backup repositories' passwords. Required for each
  # Google Cloud Storage bucket used: its project (Astra Control does not record it). For an
  # Azure bucket outside Azure's public cloud: its storage endpoint suffix.
  data_mover_password_secret = "trident-protect-repository-passwords"
  gcp_project_ids            = { (astra_bucket.gcs.id) = "acme-prod" }
  azure_endpoints            = { (astra_bucket.azure_gov.id) = "core.usgovcloudapi.net" }
}

# The YAML to review and commit. It is sensitive (hook scripts): the output must say so,
# and `terraform output -raw trident_protect_yaml > trident-protect.yaml` writes it
# without printing it.
output "trident_protect_yaml" {
  value     = data.astra_trident_protect_manifests.prod_east.yaml
  sensitive = true
}

# The Secrets to create before applying it: names and keys, never a value.
output "trident_protect_secrets" {
  value = data.astra_trident_protect_manifests.prod_east.secrets
}

# What does not carry over as it is (also a warning of the plan).
output "trident_protect_warnings" {
  value = [for w in data.astra_trident_protect_manifests.prod_east.warnings : "${w.object}: ${w.message}"]
}

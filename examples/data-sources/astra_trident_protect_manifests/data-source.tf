# Every app of a managed cluster, as Trident protect custom resources.
data "astra_trident_protect_manifests" "prod_east" {
  cluster_id = astra_managed_cluster.prod_east.id

  # Optional: the Secret holding the backup repositories' passwords, and the Google Cloud
  # project of each Google Cloud Storage bucket (Astra Control does not record it).
  data_mover_password_secret = "trident-protect-repository-passwords"
  gcp_project_ids            = { (astra_bucket.gcs.id) = "acme-prod" }
}

# The YAML to review and commit: terraform output -raw trident_protect_yaml > trident-protect.yaml
output "trident_protect_yaml" {
  value = data.astra_trident_protect_manifests.prod_east.yaml
}

# The Secrets to create before applying it: names and keys, never a value.
output "trident_protect_secrets" {
  value = data.astra_trident_protect_manifests.prod_east.secrets
}

# What does not carry over as it is (also a warning of the plan).
output "trident_protect_warnings" {
  value = [for w in data.astra_trident_protect_manifests.prod_east.warnings : "${w.object}: ${w.message}"]
}

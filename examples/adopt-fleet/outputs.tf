output "adopted" {
  description = "How many objects this configuration manages."
  value = {
    clusters         = length(astra_cluster.this)
    managed_clusters = length(astra_managed_cluster.this)
    credentials      = length(astra_kubeconfig_credential.this)
    service_accounts = length(astra_service_account_credential.this)
    s3_credentials   = length(astra_s3_credential.this)
    buckets          = length(astra_bucket.this)
    apps             = length(astra_app.this)
    policies         = length(astra_protection_policy.this)
  }
}

output "cluster_id" {
  description = "Astra Control ID of the cluster."
  value       = astra_managed_cluster.this.id
}

output "managed" {
  description = "The managed cluster as Astra Control reports it."
  value = {
    name             = astra_managed_cluster.this.name
    state            = astra_managed_cluster.this.state
    managed_state    = astra_managed_cluster.this.managed_state
    managed_since    = astra_managed_cluster.this.managed_timestamp
    cluster_type     = astra_managed_cluster.this.cluster_type
    protection_state = astra_managed_cluster.this.protection_state
    trident_version  = astra_managed_cluster.this.trident_version
  }
}

output "default_storage_class" {
  description = "The storage class Astra Control made the cluster's default."
  value = one([
    for sc in data.astra_storage_classes.this.storage_classes : { id = sc.id, name = sc.name }
    if sc.id == astra_managed_cluster.this.default_storage_class
  ])
}

output "storage_classes" {
  description = "Names of the cluster's storage classes."
  value       = [for sc in data.astra_storage_classes.this.storage_classes : sc.name]
}

output "cluster" {
  description = "What Astra Control computed about the cluster when it was added."
  value = {
    id                     = astra_cluster.this.id
    state                  = astra_cluster.this.state
    cluster_type           = astra_cluster.this.cluster_type
    cluster_version_string = astra_cluster.this.cluster_version_string
    namespaces             = astra_cluster.this.namespaces
    api_service_id         = astra_cluster.this.api_service_id
  }
}

output "backup_bucket" {
  description = "The managed cluster's default bucket, as Astra Control reports it."
  value = {
    id    = astra_bucket.backups.id
    name  = astra_bucket.backups.name
    state = astra_bucket.backups.state
  }
}

output "app" {
  description = "The protected app as Astra Control reports it after its policies and its baseline backup were created."
  value = {
    id               = astra_app.this.id
    name             = astra_app.this.name
    state            = astra_app.this.state
    namespaces       = astra_app.this.namespaces
    protection_state = one(data.astra_apps.this.apps).protection_state
    policies         = [astra_protection_policy.hourly.name, astra_protection_policy.daily.name]
  }
}

output "baseline_backup" {
  description = "The app's baseline backup (null when baseline_backup is false)."
  value = one([for b in astra_app_backup.baseline : {
    id           = b.id
    name         = b.name
    state        = b.state
    total_bytes  = b.total_bytes
    created      = b.creation_timestamp
    in_bucket_id = b.bucket_id
  }])
}

output "replication" {
  description = "The relationship: its ID (for the actions), the app on the disaster-recovery cluster, which side replicates now, and whether replication is healthy."
  value = {
    id                    = astra_app_mirror.web.id
    replica_app_id        = astra_app_mirror.web.destination_app_id
    current_source_app_id = astra_app_mirror.web.current_source_app_id
    state                 = astra_app_mirror.web.state
    health_state          = astra_app_mirror.web.health_state
  }
}

output "storage_backends" {
  description = "The ONTAP backends Astra Control manages and whether each can replicate with SnapMirror."
  value       = { for b in data.astra_storage_backends.all.backends : b.name => { managed = b.managed_state, snapmirror = b.snapmirror } }
}

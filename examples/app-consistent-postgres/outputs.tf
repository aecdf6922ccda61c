output "app_id" {
  description = "ID of the PostgreSQL app in Astra Control."
  value       = astra_app.postgres.id
}

output "hook_containers" {
  description = "The containers the pre-snapshot hook runs in (namespace/pod/container)."
  value       = [for c in astra_execution_hook.pre_snapshot.matching_containers : "${c.namespace_name}/${c.pod_name}/${c.container_name}"]
}

output "script_sha256" {
  description = "SHA-256 of the script Astra Control holds: compare with `sha256sum scripts/postgres-snapshot-hook.sh`."
  value       = astra_hook_source.postgres.source_sha256
}

output "before_upgrade_hook_state" {
  description = "How the hooks went around the on-demand backup: `success`, or `failed` (astra_app_backup.before_upgrade.hook_state_details names each hook)."
  value       = astra_app_backup.before_upgrade.hook_state
}

# What runs before the app's snapshots, and in which containers.
data "astra_execution_hooks" "pre_snapshot" {
  app_id = astra_app.shop.id
  action = "snapshot"
  stage  = "pre"
}

output "pre_snapshot_hooks" {
  value = {
    for h in data.astra_execution_hooks.pre_snapshot.hooks :
    h.name => [for c in h.matching_containers : "${c.namespace_name}/${c.pod_name}/${c.container_name}"]
  }
}

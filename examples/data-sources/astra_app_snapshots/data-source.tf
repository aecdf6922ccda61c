# The snapshots the app's protection policies took, and the newest of them that completed.
data "astra_app_snapshots" "shop_scheduled" {
  app_id    = astra_app.shop.id
  on_demand = false
}

output "shop_latest_scheduled_snapshot" {
  value = try(data.astra_app_snapshots.shop_scheduled.latest_completed.id, null)
}

# The snapshots that failed, with Astra Control's reasons.
data "astra_app_snapshots" "shop_failed" {
  app_id = astra_app.shop.id
  state  = "failed"
}

output "shop_failed_snapshots" {
  value = { for s in data.astra_app_snapshots.shop_failed.snapshots : s.name => s.state_unready }
}

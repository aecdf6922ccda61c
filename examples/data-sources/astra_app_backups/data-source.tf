# The newest good backup of the app, however it was taken: the one to clone or restore from.
data "astra_app_backups" "shop" {
  app_id = astra_app.shop.id
}

output "shop_latest_backup" {
  value = data.astra_app_backups.shop.latest_completed == null ? null : {
    id      = data.astra_app_backups.shop.latest_completed.id
    name    = data.astra_app_backups.shop.latest_completed.name
    created = data.astra_app_backups.shop.latest_completed.creation_timestamp
  }
}

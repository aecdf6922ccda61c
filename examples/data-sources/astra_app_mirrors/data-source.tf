# The replication relationships of the app "shop", and whether each is healthy.
data "astra_app_mirrors" "shop" {
  app_id = astra_app.shop.id
}

output "shop_replication" {
  value = [for m in data.astra_app_mirrors.shop.mirrors : { id = m.id, state = m.state, health = m.health_state }]
}

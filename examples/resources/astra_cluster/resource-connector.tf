# A private cluster registered through an Astra Connector: no credential, a private route
# and a relay-capable capability (relayV1 with api_version 1.5 or 1.6, connectorV2 with
# 1.7). It stays pending until its connector runs, so create does not wait for it.
resource "astra_cluster" "factory" {
  cloud_id               = data.astra_clouds.private.clouds[0].id
  name                   = "factory-floor"
  private_route_id       = "3f6c1b2a-9d4e-4c7f-8a1b-5e2d7c9f0a13"
  connector_capabilities = ["relayV1", "watcherV1"]
  wait_for_running       = false
}

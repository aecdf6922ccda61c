# A snapshot taken before a migration, kept until it is removed from the configuration.
# Create waits until it is completed; a failed snapshot fails the apply with Astra
# Control's reasons and is replaced on the next apply.
resource "astra_app_snapshot" "before_migration" {
  app_id = astra_app.shop.id
  name   = "shop-before-migration"

  timeouts = {
    create = "1h"
  }
}

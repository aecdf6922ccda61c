# A backup into the bucket, taken before a release and kept until it is removed from the
# configuration. Create waits until it is completed: with an enabled policy that takes
# backups, the app's protection_state is then "protected".
resource "astra_app_backup" "before_release" {
  app_id    = astra_app.shop.id
  name      = "shop-before-release-2-4"
  bucket_id = astra_bucket.backups.id

  timeouts = {
    create = "2h"
  }
}

# A backup taken from a snapshot the configuration keeps: both show the same point in time.
resource "astra_app_backup" "before_migration" {
  app_id      = astra_app.shop.id
  name        = "shop-before-migration"
  snapshot_id = astra_app_snapshot.before_migration.id
}

# Snapshots every hour at :15, keeping a day of them; no backups.
resource "astra_protection_policy" "shop_hourly" {
  app_id             = astra_app.shop.id
  name               = "hourly"
  granularity        = "hourly"
  minute             = 15
  snapshot_retention = 24
  backup_retention   = 0
}

# A snapshot and a backup every day at 02:30 UTC, keeping a week of each.
resource "astra_protection_policy" "shop_daily" {
  app_id             = astra_app.shop.id
  name               = "daily"
  granularity        = "daily"
  hour               = 2
  minute             = 30
  snapshot_retention = 7
  backup_retention   = 7
  bucket_id          = astra_bucket.backups.id
}

# Sundays at 03:00 UTC, keeping four backups. No bucket_id: the backups go to the bucket
# Astra Control chooses, the managed cluster's default bucket (default_bucket_id), else its
# cloud's; the choice is read back into bucket_id and kept without a diff.
resource "astra_protection_policy" "shop_weekly" {
  app_id             = astra_app.shop.id
  name               = "weekly"
  granularity        = "weekly"
  day_of_week        = 0
  hour               = 3
  snapshot_retention = 1
  backup_retention   = 4
}

# Replication every 5 minutes (sent as FREQ=MINUTELY;INTERVAL=5): each snapshot is
# replicated to the app's astra_app_mirror destination. replicate = true is refused at plan
# time on an app without a relationship, hence depends_on.
resource "astra_protection_policy" "shop_replication" {
  app_id             = astra_app.shop.id
  name               = "replication"
  granularity        = "custom"
  interval_minutes   = 5
  replicate          = true
  snapshot_retention = 2
  backup_retention   = 0

  depends_on = [astra_app_mirror.shop]
}

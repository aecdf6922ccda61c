# Before each snapshot of the app, run the script in its mysql containers only.
resource "astra_execution_hook" "pre_snapshot" {
  name           = "mysql-pre-snapshot"
  app_id         = astra_app.shop.id
  hook_source_id = astra_hook_source.mysql_flush.id
  action         = "snapshot"
  stage          = "pre"
  arguments      = ["flush"]
  matching_criteria = [
    { type = "container_name", value = "^mysql$" },
    { type = "pod_label", value = "app=shop-db" },
  ]
}

# After each restore (restore hooks run post only), paused for now.
resource "astra_execution_hook" "post_restore" {
  name           = "mysql-post-restore"
  app_id         = astra_app.shop.id
  hook_source_id = astra_hook_source.mysql_flush.id
  action         = "restore"
  stage          = "post"
  arguments      = ["check"]
  enabled        = false
}

terraform {
  # action blocks need Terraform 1.14 or later.
  required_version = ">= 1.14"
}

# After a failover test, replicate from the original app again: its data is kept, the
# failed-over copy's is OVERWRITTEN: terraform apply -invoke=action.astra_app_mirror_resync.shop
# Then set the astra_app_mirror's desired_state back to "established".
action "astra_app_mirror_resync" "shop" {
  config {
    mirror_id     = astra_app_mirror.shop.id
    source_app_id = astra_app.shop.id
  }
}

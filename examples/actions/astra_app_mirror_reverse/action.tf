terraform {
  # action blocks need Terraform 1.14 or later.
  required_version = ">= 1.14"
}

# After a failover, make the failed-over copy the source (its writes are kept; the former
# source's data is OVERWRITTEN): terraform apply -invoke=action.astra_app_mirror_reverse.shop
# Then set the astra_app_mirror's desired_state back to "established".
action "astra_app_mirror_reverse" "shop" {
  config {
    mirror_id = astra_app_mirror.shop.id
  }
}

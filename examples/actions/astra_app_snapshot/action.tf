# Take a snapshot now: terraform apply -invoke=action.astra_app_snapshot.before_upgrade
terraform {
  # action blocks and action_trigger need Terraform 1.14 or later.
  required_version = ">= 1.14"
}

action "astra_app_snapshot" "before_upgrade" {
  config {
    app_id = astra_app.web.id
    name   = "before-upgrade"
  }
}

# Overwrites the app's resources and volumes with the backup's. Run it only on purpose:
#   terraform apply -invoke=action.astra_app_restore.from_nightly
terraform {
  # action blocks and action_trigger need Terraform 1.14 or later.
  required_version = ">= 1.14"
}

action "astra_app_restore" "from_nightly" {
  config {
    app_id    = astra_app.web.id
    backup_id = var.backup_id
  }
}

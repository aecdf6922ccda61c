# A backup right before each new release of the app's workloads, taken by the apply that
# rolls it out (Terraform 1.14+), or on demand: terraform apply -invoke=action.astra_app_backup.now
terraform {
  # action blocks and action_trigger need Terraform 1.14 or later.
  required_version = ">= 1.14"
}

action "astra_app_backup" "now" {
  config {
    app_id    = astra_app.web.id
    bucket_id = astra_bucket.backups.id
  }
}

resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [before_create, before_update]
      actions = [action.astra_app_backup.now]
    }
  }
}

terraform {
  # action blocks and action_trigger need Terraform 1.14 or later.
  required_version = ">= 1.14"
}

# Take a snapshot now: terraform apply -invoke=action.astra_app_snapshot.before_upgrade
# Each invocation takes a new one, named before-upgrade- and the time in UTC
# (before-upgrade-20260102-030405): a fixed name would be refused the second time.
action "astra_app_snapshot" "before_upgrade" {
  config {
    app_id      = astra_app.web.id
    name_prefix = "before-upgrade-"
  }
}

# Take a snapshot now: terraform apply -invoke=action.astra_app_snapshot.before_upgrade
action "astra_app_snapshot" "before_upgrade" {
  config {
    app_id = astra_app.web.id
    name   = "before-upgrade"
  }
}

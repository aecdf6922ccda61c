output "protection" {
  description = "Per cluster: its app's ID and protection state (partial once its policies exist; protected once a backup under a week old completed)."
  value = {
    for name, app in astra_app.fleet : name => {
      app_id           = app.id
      namespaces       = app.namespaces
      protection_state = one([for a in data.astra_apps.fleet.apps : a.protection_state if a.id == app.id])
    }
  }
}

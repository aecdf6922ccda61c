output "staging" {
  description = "The staging app: its ID, the namespaces it spans, and the app and backup it was cloned from."
  value = {
    id             = astra_app.staging.id
    namespaces     = astra_app.staging.namespaces
    state          = astra_app.staging.state
    source_app_id  = astra_app.staging.source_app_id
    from_backup_id = astra_app.staging.source.backup_id
  }
}

# A staging copy of production, cloned from a backup into a namespace the clone creates.
resource "astra_app" "staging" {
  name                       = "web-staging"
  cluster_id                 = astra_managed_cluster.staging.id
  namespace_scoped_resources = [{ namespace = "web-staging" }]

  source = {
    app_id            = astra_app.web.id
    backup_id         = var.nightly_backup_id
    namespace_mapping = [{ source = "web", destination = "web-staging" }]
  }
}

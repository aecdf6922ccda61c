# The whole "shop" namespace, plus the database's labelled resources in "db", as one app.
resource "astra_app" "shop" {
  name       = "shop"
  cluster_id = astra_managed_cluster.prod_east.id

  namespace_scoped_resources = [
    { namespace = "shop" },
    { namespace = "db", label_selectors = ["app=postgres"] },
  ]

  cluster_scoped_resources = [
    { group = "rbac.authorization.k8s.io", version = "v1", kind = "ClusterRole", label_selectors = ["app=shop"] },
  ]

  labels = {
    team = "storefront"
  }
}

# The app "shop" replicated to the disaster-recovery cluster; create waits until the
# relationship is established. Change desired_state to "failed_over" to fail over.
resource "astra_app_mirror" "shop" {
  source_app_id             = astra_app.shop.id
  destination_cluster_id    = astra_managed_cluster.dr.id
  namespace_mapping         = [{ source = "shop", destination = "shop-dr" }]
  destination_storage_class = "ontap-gold"
  desired_state             = "established"
}

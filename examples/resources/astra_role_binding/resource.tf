# The payments team's group manages the apps of the namespaces labelled team=payments, on
# every cluster, and of one namespace by its Astra ID. A role or constraint change is one
# update in place; the order of the constraints is not a change.
resource "astra_role_binding" "payments" {
  group_id = astra_group.payments.id
  role     = "member"
  namespace_constraints = [
    { kubernetes_labels = "team=payments" },
    { namespace_id = "3f8c5e40-ad9f-4071-9c2d-3e4f5a6b7c8d" },
  ]
}

# Render an Astra Control estate as the NetApp Trident protect custom resources that take
# over its protection: every app of a managed cluster (or one app), with an AppVault per
# bucket its policies use, a Schedule per protection policy and an ExecHook per execution
# hook. The data source only reads Astra Control; the outputs hold the YAML to review,
# commit and apply (see kubernetes/), the Secrets to create, and what does not carry over.

data "astra_trident_protect_manifests" "estate" {
  cluster_id                 = var.cluster_id
  app_id                     = var.app_id
  protect_namespace          = var.protect_namespace
  data_mover_password_secret = var.data_mover_password_secret
  gcp_project_ids            = var.gcp_project_ids
  azure_endpoints            = var.azure_endpoints
}

# Every difference is a warning of the plan already; this check repeats them once the
# rendering is applied, so none goes unread. A rendering without warnings passes it.
check "trident_protect_mapping" {
  assert {
    condition     = length(data.astra_trident_protect_manifests.estate.warnings) == 0
    error_message = "Part of Astra Control's protection does not carry over as it is: read the output trident_protect_warnings."
  }
}

# Apply a reviewed Trident protect rendering, from its file, beside Astra Control's policies
# (the guide "Moving to Trident protect", steps 2 and 3). It reads the file, not the data
# source: once Astra Control's policies are removed, the data source renders fewer
# Schedules, and resources fed from it would be destroyed with them.
#
# Not part of the example's test: it needs the Kubernetes provider, a cluster, and
# Trident protect's custom resource definitions, which kubernetes_manifest reads at plan.

# The Secrets the AppVaults read (and the data mover passwords, if the rendering names
# them). Their values end up in state, marked sensitive: create them with kubectl instead
# if your state must not hold them.
resource "kubernetes_secret_v1" "trident_protect" {
  for_each = toset(nonsensitive(keys(var.trident_protect_secrets)))

  metadata {
    name      = each.key
    namespace = var.protect_namespace
  }
  data = var.trident_protect_secrets[each.key]
}

locals {
  # Each YAML document, keyed kind.namespace.name as the data source keys it.
  trident_protect = {
    for doc in split("\n---\n", "\n${file("${path.module}/${var.manifests_file}")}") :
    "${yamldecode(doc).kind}.${yamldecode(doc).metadata.namespace}.${yamldecode(doc).metadata.name}" => yamldecode(doc)
    if trimspace(doc) != ""
  }
  # AppVaults and Applications first: Schedules and ExecHooks refer to them. An
  # Application's name holds a hash of its scope, which its CRD makes immutable: a new
  # rendering after a scope change has another key, so the old one is destroyed and the new
  # one created, never updated in place (which the API server would refuse).
  trident_protect_first = { for k, m in local.trident_protect : k => m if contains(["AppVault", "Application"], m.kind) }
  trident_protect_then  = { for k, m in local.trident_protect : k => m if !contains(["AppVault", "Application"], m.kind) }
}

resource "kubernetes_manifest" "trident_protect_first" {
  for_each   = local.trident_protect_first
  manifest   = each.value
  depends_on = [kubernetes_secret_v1.trident_protect]
}

resource "kubernetes_manifest" "trident_protect" {
  for_each   = local.trident_protect_then
  manifest   = each.value
  depends_on = [kubernetes_manifest.trident_protect_first]
}

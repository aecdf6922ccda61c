# A platform team's access setup: Astra Control Center bound to Active Directory, the ops
# group as admins, each app team's group as members limited to its own namespaces (by the
# label team=<name>), and a CI token that lives for one run.

resource "astra_ldap" "corp" {
  url                      = var.ldap_url
  bind_dn                  = var.ldap_bind_dn
  bind_password_wo         = var.ldap_bind_password
  bind_password_wo_version = var.ldap_bind_password_version
  user_search_base         = var.user_search_base
  group_search_base        = var.group_search_base
}

resource "astra_group" "ops" {
  auth_id = var.ops_group_dn
  # Checked against the directory at plan time once LDAP is valid.
  depends_on = [astra_ldap.corp]
}

resource "astra_role_binding" "ops" {
  group_id = astra_group.ops.id
  role     = "admin"
}

resource "astra_group" "team" {
  for_each   = var.app_teams
  auth_id    = each.value
  depends_on = [astra_ldap.corp]
}

resource "astra_role_binding" "team" {
  for_each = var.app_teams
  group_id = astra_group.team[each.key].id
  role     = "member"
  # A set: reordering plans nothing; a change is one update in place.
  namespace_constraints = [{ kubernetes_labels = "team=${each.key}" }]
}

# Opened for this run, deleted when it ends: nothing of it is stored in state or plan.
ephemeral "astra_api_token" "ci" {
  name    = "ci-${var.pipeline_id}"
  user_id = var.ci_user_id
}

# What the pipeline reads with its own token (the provider "astra.ci" of versions.tf).
data "astra_apps" "ci_view" {
  provider = astra.ci
}

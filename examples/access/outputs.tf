output "ldap_state" {
  description = "valid once Astra Control applied the LDAP configuration."
  value       = astra_ldap.corp.state
}

output "team_bindings" {
  description = "Each app team's role binding ID."
  value       = { for team, b in astra_role_binding.team : team => b.id }
}

output "apps_seen_by_ci" {
  description = "How many apps the CI token's user sees."
  value       = length(data.astra_apps.ci_view.apps)
}

# The directory's group named ops, for an astra_group's auth_id.
data "astra_ldap_groups" "ops" {
  cn = "ops"
}

output "ops_dn" {
  value = one(data.astra_ldap_groups.ops.groups[*].dn)
}

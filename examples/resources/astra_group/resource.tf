# An LDAP group by DN (compared case-insensitively), checked at plan time against the
# directory; its members get the role of its binding.
resource "astra_group" "ops" {
  auth_id = "CN=ops,OU=groups,DC=example,DC=com"
}

resource "astra_role_binding" "ops" {
  group_id = astra_group.ops.id
  role     = "admin"
}

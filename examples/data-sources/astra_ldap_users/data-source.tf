# The directory entry of a person, for an LDAP astra_user's auth_id.
data "astra_ldap_users" "alice" {
  email = "alice@example.com"
}

output "alice_dn" {
  value = one(data.astra_ldap_users.alice.users[*].dn)
}

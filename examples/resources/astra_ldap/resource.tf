# Astra Control Center bound to Active Directory over LDAPS. The bind password is
# write-only (Terraform or OpenTofu 1.11): raise bind_password_wo_version to send a new one.
# The apply waits until Astra Control reports the configuration valid; destroy disables LDAP.
resource "astra_ldap" "corp" {
  url                      = "ldaps://ldap.example.com"
  bind_dn                  = "svc-astra@example.com"
  bind_password_wo         = var.ldap_bind_password # an ephemeral, sensitive variable
  bind_password_wo_version = "1"
  user_search_base         = "OU=users,DC=example,DC=com"
  group_search_base        = "OU=groups,DC=example,DC=com"
}

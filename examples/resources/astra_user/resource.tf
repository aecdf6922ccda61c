# A local user of Astra Control Center, with a write-only password (Terraform or OpenTofu
# 1.11): raise password_wo_version to send a new one.
resource "astra_user" "jdoe" {
  email               = "jdoe@example.com"
  first_name          = "John"
  last_name           = "Doe"
  auth_provider       = "local"
  password_wo         = var.jdoe_password # an ephemeral, sensitive variable
  password_wo_version = "1"
  temporary_password  = true
}

# A user has no role until a binding gives it one; deleting its last binding deletes it.
resource "astra_role_binding" "jdoe" {
  user_id = astra_user.jdoe.id
  role    = "viewer"
}

# A person of the LDAP directory, by DN.
resource "astra_user" "alice" {
  email         = "alice@example.com"
  auth_provider = "ldap"
  auth_id       = "CN=Alice Admin,OU=users,DC=example,DC=com"
}

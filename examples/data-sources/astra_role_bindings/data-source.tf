# Who is an admin of the account.
data "astra_role_bindings" "admins" {
  role = "admin"
}

output "admin_principals" {
  value = [for b in data.astra_role_bindings.admins.role_bindings : coalesce(b.user_id, b.group_id)]
}

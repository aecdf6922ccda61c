# The account's local users.
data "astra_users" "local" {
  auth_provider = "local"
}

output "local_user_emails" {
  value = data.astra_users.local.users[*].email
}

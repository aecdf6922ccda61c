variable "ldap_url" {
  description = "The Active Directory server Astra Control binds to, for example ldaps://ldap.example.com."
  type        = string
}

variable "ldap_bind_dn" {
  description = "The service account Astra Control binds as."
  type        = string
}

variable "ldap_bind_password" {
  description = "The service account's password: sent write-only, never stored in state or plan."
  type        = string
  sensitive   = true
  ephemeral   = true
}

variable "ldap_bind_password_version" {
  description = "Change it (a counter, a date) whenever ldap_bind_password changes: only then is the password sent again."
  type        = string
  default     = "1"
}

variable "user_search_base" {
  description = "Where Astra Control looks for people."
  type        = string
  default     = "OU=users,DC=example,DC=com"
}

variable "group_search_base" {
  description = "Where Astra Control looks for groups."
  type        = string
  default     = "OU=groups,DC=example,DC=com"
}

variable "ops_group_dn" {
  description = "The platform team's LDAP group: admins of the account."
  type        = string
  default     = "CN=ops,OU=groups,DC=example,DC=com"
}

variable "app_teams" {
  description = "Each app team's LDAP group DN, by team name: the team's members manage the apps in the namespaces labelled team=<name>, on every cluster."
  type        = map(string)
  default = {
    payments = "CN=payments,OU=groups,DC=example,DC=com"
  }
}

variable "ci_user_id" {
  description = "The user whose role the CI pipeline's token carries (a viewer, say); the astra_users data source lists them."
  type        = string
}

variable "pipeline_id" {
  description = "The CI run's ID: it names the token, so a run killed before it could delete its token leaves one that says which run it was."
  type        = string
  default     = "local"
}

# An app's protection policies, as astra_protection_policy holds them: here, the ones that
# take no backup.
data "astra_protection_policies" "web" {
  app_id = astra_app.web.id
}

output "web_policies_without_backups" {
  value = [for p in data.astra_protection_policies.web.policies : p.name if p.backup_retention == 0]
}

data "astra_groups" "all" {}

output "group_dns" {
  value = data.astra_groups.all.groups[*].auth_id
}

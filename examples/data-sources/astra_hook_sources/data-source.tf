# The account's scripts, and the SHA-256 of the one named mysql-flush, to compare with the
# file in git (sha256sum scripts/mysql-flush.sh).
data "astra_hook_sources" "mysql_flush" {
  name = "mysql-flush"
}

output "mysql_flush_sha256" {
  value = one(data.astra_hook_sources.mysql_flush.hook_sources[*].source_sha256)
}

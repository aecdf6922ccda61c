# A script kept in git beside the configuration, uploaded as plain text (the provider
# base64-encodes it). A change of the file plans as a change of source_sha256.
resource "astra_hook_source" "mysql_flush" {
  name        = "mysql-flush"
  description = "Flushes MySQL tables before a snapshot, releases them after."
  source      = file("${path.module}/scripts/mysql-flush.sh")

  # Hooks moved to another script in the same apply are updated before this one is deleted
  # (Astra Control refuses to delete a script a hook runs).
  lifecycle {
    create_before_destroy = true
  }
}

# The same, from base64 text (filebase64 gives the canonical form the provider expects).
resource "astra_hook_source" "from_base64" {
  name          = "es-freeze"
  source_base64 = filebase64("${path.module}/scripts/es-freeze.sh")
}

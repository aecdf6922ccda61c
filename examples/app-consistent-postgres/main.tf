# App-consistent protection of PostgreSQL: the workload as an app, a script that Astra
# Control runs in its postgres container before and after each snapshot (the same script,
# told its stage by an argument), and a daily policy whose snapshots and backups run it.
# A backup that takes its own snapshot runs the snapshot hooks too, so no backup hooks are
# declared. A hook that fails does not fail the snapshot: it completes with hookState
# "failed", the hook named in hookStateDetails.

resource "astra_app" "postgres" {
  name       = var.app_name
  cluster_id = var.managed_cluster_id

  namespace_scoped_resources = [{ namespace = var.namespace, label_selectors = [var.label_selector] }]
}

# The script, kept in git beside this configuration (a Windows checkout must keep its LF
# line endings: `*.sh text eol=lf` in .gitattributes; the provider refuses carriage returns
# at plan time). A change of the script plans as a change of source_sha256.
resource "astra_hook_source" "postgres" {
  name        = "${var.app_name}-snapshot-hook"
  description = "CHECKPOINT before a snapshot; the WAL position logged before and after."
  source      = file(coalesce(var.hook_script_path, "${path.module}/scripts/postgres-snapshot-hook.sh"))

  # Moving the hooks to another script and removing this one in the same apply: Terraform
  # then updates the hooks before it deletes this source, which Astra Control refuses while
  # a hook runs it.
  lifecycle {
    create_before_destroy = true
  }
}

locals {
  # Only the PostgreSQL container of the app's pods (a sidecar, an exporter, are left alone).
  postgres_containers = [{ type = "container_name", value = "^${var.container_name}$" }]
}

resource "astra_execution_hook" "pre_snapshot" {
  name              = "${var.app_name}-pre-snapshot"
  app_id            = astra_app.postgres.id
  hook_source_id    = astra_hook_source.postgres.id
  action            = "snapshot"
  stage             = "pre"
  arguments         = ["pre"]
  matching_criteria = local.postgres_containers
}

resource "astra_execution_hook" "post_snapshot" {
  name              = "${var.app_name}-post-snapshot"
  app_id            = astra_app.postgres.id
  hook_source_id    = astra_hook_source.postgres.id
  action            = "snapshot"
  stage             = "post"
  arguments         = ["post"]
  matching_criteria = local.postgres_containers
}

# A snapshot and a backup every day at 01:30 UTC, a week of each kept.
resource "astra_protection_policy" "daily" {
  app_id             = astra_app.postgres.id
  name               = "daily"
  granularity        = "daily"
  hour               = 1
  minute             = 30
  snapshot_retention = 7
  backup_retention   = 7
  bucket_id          = var.bucket_id

  # The hooks exist before the first scheduled snapshot.
  depends_on = [astra_execution_hook.pre_snapshot, astra_execution_hook.post_snapshot]
}

# A hook whose criteria match no container never runs, silently: say so at every plan.
check "hooks_match_the_postgres_container" {
  assert {
    condition     = length(astra_execution_hook.pre_snapshot.matching_containers) > 0
    error_message = "The pre-snapshot hook matches no container of app ${var.app_name}: check container_name (${var.container_name})."
  }
}

# An on-demand backup, kept by name, before an upgrade of PostgreSQL: it takes its own
# snapshot, so the snapshot hooks run around it, and its hook_state says how they went
# ("success", or "failed" with hook_state_details naming each hook; a failed hook does not
# fail the backup, which is then only crash-consistent).
resource "astra_app_backup" "before_upgrade" {
  app_id    = astra_app.postgres.id
  name      = "before-upgrade"
  bucket_id = var.bucket_id

  # The hooks must exist before the backup runs, or it runs without them.
  depends_on = [astra_execution_hook.pre_snapshot, astra_execution_hook.post_snapshot]
}

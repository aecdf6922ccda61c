# The ONTAP backends Astra Control knows: replication needs a managed one under each cluster.
data "astra_storage_backends" "all" {}

output "snapmirror_backends" {
  value = [for b in data.astra_storage_backends.all.backends : b.name if b.managed_state == "managed" && b.snapmirror == true]
}

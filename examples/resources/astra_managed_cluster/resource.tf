resource "astra_cluster" "prod_east" {
  cloud_id      = data.astra_clouds.private.clouds[0].id
  credential_id = astra_kubeconfig_credential.prod_east.id
}

# The cluster's storage classes, to pick the one Astra Control makes its default.
data "astra_storage_classes" "prod_east" {
  cluster_id = astra_cluster.prod_east.id
}

resource "astra_managed_cluster" "prod_east" {
  cluster_id = astra_cluster.prod_east.id
  default_storage_class = one([
    for sc in data.astra_storage_classes.prod_east.storage_classes : sc.id if sc.name == "ontap-gold"
  ])

  timeouts = {
    create = "45m"
  }
}

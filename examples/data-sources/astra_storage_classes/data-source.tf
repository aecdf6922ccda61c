data "astra_storage_classes" "prod_east" {
  cluster_id = astra_cluster.prod_east.id
}

# The ID of a storage class by its Kubernetes name, and the cluster's default one.
output "ontap_gold_id" {
  value = one([for sc in data.astra_storage_classes.prod_east.storage_classes : sc.id if sc.name == "ontap-gold"])
}

output "default_storage_class_id" {
  value = data.astra_storage_classes.prod_east.default_storage_class_id
}

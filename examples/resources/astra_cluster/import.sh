# A cluster is imported by its Astra Control ID alone; cloud_id is read from it.
terraform import astra_cluster.prod_east 5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f

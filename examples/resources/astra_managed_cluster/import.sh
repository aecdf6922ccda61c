# A managed cluster is imported by the ID of its cluster.
terraform import astra_managed_cluster.prod_east 5b7d2c1e-3f4a-4b6c-8d9e-0a1b2c3d4e5f

# A cloud is imported by its Astra Control ID; cloud_type is read in lowercase.
terraform import astra_cloud.gcp 0c8b4e1a-6a4d-4f53-9b6e-2f3a1c5d7e90

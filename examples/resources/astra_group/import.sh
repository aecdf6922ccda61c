# A group is imported by its Astra Control ID (the astra_groups data source lists them).
terraform import astra_group.ops 8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d

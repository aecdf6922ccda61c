# A relationship is imported by its ID (the astra_app_mirrors data source lists them).
terraform import astra_app_mirror.shop 3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f

# An app is imported by its Astra ID.
terraform import astra_app.shop 6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f

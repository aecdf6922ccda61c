# A protection policy is imported as "<app_id>/<id>": its app's ID, then its own.
terraform import astra_protection_policy.shop_daily 6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f/2a4b6c8d-1e3f-4a5b-8c7d-9e0f1a2b3c4d

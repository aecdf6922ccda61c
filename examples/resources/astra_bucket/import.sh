# A bucket is imported by its Astra Control ID.
terraform import astra_bucket.backups 5f2d6c1e-8b3a-4e7f-9a1d-3c5e7f9b1d2a

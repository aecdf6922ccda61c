# A snapshot is imported as "<app_id>/<id>": its app's ID, then its own.
terraform import astra_app_snapshot.before_migration 6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f/5e1d3c7b-2a4f-4b6d-8e9a-0c1b2d3e4f5a

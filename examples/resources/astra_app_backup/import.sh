# A backup is imported as "<app_id>/<id>": its app's ID, then its own.
terraform import astra_app_backup.before_release 6c2f4e1a-8b3d-4f5a-9c7e-1d2b3a4c5e6f/9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d

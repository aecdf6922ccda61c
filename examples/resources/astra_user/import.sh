# A user is imported by its Astra Control ID (the astra_users data source lists them); its password is never read back.
terraform import astra_user.jdoe 8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d

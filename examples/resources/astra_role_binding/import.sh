# A role binding is imported by its Astra Control ID (the astra_role_bindings data source lists them).
terraform import astra_role_binding.ops 8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d

# A hook source is imported by its Astra Control ID; the script lands in `source`.
terraform import astra_hook_source.mysql_flush 8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d

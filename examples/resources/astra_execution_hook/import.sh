# An execution hook is imported by its Astra Control ID.
terraform import astra_execution_hook.pre_snapshot 3a9b7c5d-1e2f-4a3b-8c4d-5e6f7a8b9c0d

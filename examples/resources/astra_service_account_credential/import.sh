# A service-account credential is imported by its Astra Control ID. The key file cannot be
# read back: leave it out to keep the one Astra Control holds, or set it to rotate it with
# the next apply. cloud_type is read back from the credential's cloudName label.
terraform import astra_service_account_credential.gcp 2b1a0f9e-8d7c-4b5a-8f3e-2d1c0b9a8f7e

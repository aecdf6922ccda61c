# An S3 credential is imported by its Astra Control ID. The key pair cannot be read back:
# leave access_key_id and the secret out to keep the pair Astra Control holds, or set them
# to rotate it with the next apply.
terraform import astra_s3_credential.backups 7c6b5a4f-3e2d-4c1b-9a0f-8e7d6c5b4a3f

# The LDAP configuration is imported by the ID of the account's astra.account.ldap setting; the bind password is never read back.
terraform import astra_ldap.corp 8c1e5a2b-3d4f-4a6b-9c8d-7e6f5a4b3c2d

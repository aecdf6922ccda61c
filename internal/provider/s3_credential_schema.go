package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// s3Secret is the secret access key: secret_access_key, or secret_access_key_wo with its version.
var s3Secret = newSecretArgument("secret_access_key", "secret access key",
	"Set `access_key_id` with `secret_access_key` (stored in state, marked sensitive) or with `secret_access_key_wo` "+
		"and `secret_access_key_wo_version` (Terraform 1.11 or later, OpenTofu 1.11 or later: never stored).")

// s3CredentialAttributes are astra_s3_credential's attributes.
func s3CredentialAttributes() map[string]schema.Attribute {
	attributes := s3Secret.credentialAttributes("The secret access key of the key pair. Sensitive: never shown in plans, logs "+
		"or errors, but stored in state. A change rotates the credential in place (one update). At most one of "+
		"`secret_access_key` and `secret_access_key_wo`; one of them is required to create a credential. Astra Control "+
		"never returns the key pair, so an imported credential may leave both unset (and `access_key_id` too) and keeps "+
		"the pair Astra Control holds; set them later to rotate it.",
		[]validator.String{stringvalidator.LengthAtLeast(1)}, "access_key_id")
	attributes["access_key_id"] = schema.StringAttribute{
		Optional:  true,
		Sensitive: true,
		MarkdownDescription: "The access key ID of the object store's key pair. Required to create a credential and to " +
			"rotate its secret (the key store holds both); a change rotates the credential in place. Sensitive, never " +
			"returned by Astra Control: an imported credential may leave it out.",
		Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
	}
	return attributes
}

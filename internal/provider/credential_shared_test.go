package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestCredentialResourcesHaveSpecs: each credential resource is built with its own spec,
// whose names match its type and schema (an empty spec would name no attribute).
func TestCredentialResourcesHaveSpecs(t *testing.T) {
	for _, tc := range []struct {
		new  func() resource.Resource
		spec func(resource.Resource) credentialPlanRules
	}{
		{newKubeconfigCredentialResource, func(r resource.Resource) credentialPlanRules {
			return r.(*kubeconfigCredentialResource).spec.rules
		}},
		{newS3CredentialResource, func(r resource.Resource) credentialPlanRules { return r.(*s3CredentialResource).spec.rules }},
		{newServiceAccountCredentialResource, func(r resource.Resource) credentialPlanRules {
			return r.(*serviceAccountCredentialResource).spec.rules
		}},
	} {
		r := tc.new()
		var meta resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "astra"}, &meta)
		var sch resource.SchemaResponse
		r.Schema(context.Background(), resource.SchemaRequest{}, &sch)
		rules := tc.spec(r)
		if rules.typeName != meta.TypeName {
			t.Errorf("%s: the spec names %q", meta.TypeName, rules.typeName)
		}
		for _, name := range append(append([]string{rules.secret.plain, rules.secret.wo, rules.secret.woVersion}, rules.requiredToCreate...), rules.sentWithSecret...) {
			if _, ok := sch.Schema.Attributes[name]; !ok {
				t.Errorf("%s: the spec names %q, which the schema does not have", meta.TypeName, name)
			}
		}
	}
}
